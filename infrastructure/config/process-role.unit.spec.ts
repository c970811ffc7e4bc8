import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration: process roles (issue 37 item 2, decision 0066)', () => {
  it('runs everything in one process unless PROCESS_ROLE says otherwise', () => {
    expect(loadConfig({})).toMatchObject({ processRole: 'all', jobProcesses: 0 });
    expect(loadConfig({ PROCESS_ROLE: 'api' }).processRole).toBe('api');
    expect(loadConfig({ PROCESS_ROLE: 'jobs' }).processRole).toBe('jobs');
    expect(loadConfig({ PROCESS_ROLE: 'all' }).processRole).toBe('all');
  });

  it('names the variable and the roles it takes when the role is unknown', () => {
    expect(() => loadConfig({ PROCESS_ROLE: 'worker' })).toThrow(ConfigError);
    expect(() => loadConfig({ PROCESS_ROLE: 'worker' })).toThrow(/PROCESS_ROLE: must be api, jobs or all/);
    expect(() => loadConfig({ PROCESS_ROLE: 'API' })).toThrow(/PROCESS_ROLE/);
  });

  it('takes JOB_PROCESSES for the supervisor, from 0 to 64', () => {
    expect(loadConfig({ API_PROCESSES: '2', JOB_PROCESSES: '3' })).toMatchObject({ apiProcesses: 2, jobProcesses: 3, processRole: 'all' });
    expect(loadConfig({ JOB_PROCESSES: '1' }).jobProcesses).toBe(1);
    expect(() => loadConfig({ JOB_PROCESSES: '-1' })).toThrow(/JOB_PROCESSES/);
    expect(() => loadConfig({ JOB_PROCESSES: '65' })).toThrow(/JOB_PROCESSES/);
    expect(() => loadConfig({ JOB_PROCESSES: 'dva' })).toThrow(/JOB_PROCESSES/);
  });

  it("refuses one process's role together with a supervisor's counts (the supervisor gives each process its role)", () => {
    expect(() => loadConfig({ PROCESS_ROLE: 'jobs', JOB_PROCESSES: '2' })).toThrow(/set one or the other/);
    expect(() => loadConfig({ PROCESS_ROLE: 'api', API_PROCESSES: '3' })).toThrow(/set one or the other/);
    // What the supervisor forks each process with.
    expect(loadConfig({ PROCESS_ROLE: 'jobs', API_PROCESSES: '1', JOB_PROCESSES: '0' }).processRole).toBe('jobs');
  });

  it("keeps pg-boss's monitor and the queues' heartbeats unless set, and refuses a heartbeat pg-boss would refuse", () => {
    expect(loadConfig({}).jobTiming).toEqual({ monitorIntervalSeconds: undefined, heartbeatSeconds: undefined });
    expect(loadConfig({ JOB_MONITOR_INTERVAL_SECONDS: '2', JOB_HEARTBEAT_SECONDS: '10' }).jobTiming).toEqual({
      monitorIntervalSeconds: 2,
      heartbeatSeconds: 10,
    });
    expect(() => loadConfig({ JOB_HEARTBEAT_SECONDS: '5' })).toThrow(/JOB_HEARTBEAT_SECONDS/);
    expect(() => loadConfig({ JOB_MONITOR_INTERVAL_SECONDS: '0' })).toThrow(/JOB_MONITOR_INTERVAL_SECONDS/);
  });
});
