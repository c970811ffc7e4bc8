import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration: several processes and the EventStoreDB address (decision 0035)', () => {
  it('runs one API process unless API_PROCESSES asks for more, and refuses nonsense', () => {
    expect(loadConfig({}).apiProcesses).toBe(1);
    expect(loadConfig({ API_PROCESSES: '3' }).apiProcesses).toBe(3);
    expect(() => loadConfig({ API_PROCESSES: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ API_PROCESSES: 'vsi' })).toThrow(ConfigError);
  });

  it('takes ESDB_URL for EVENTSTORE_URL, EVENTSTORE_URL winning when both are set', () => {
    expect(loadConfig({ EVENT_STORE: 'esdb', ESDB_URL: 'esdb://a:2113?tls=false' }).eventStoreUrl).toBe('esdb://a:2113?tls=false');
    expect(loadConfig({ ESDB_URL: 'esdb://a:2113', EVENTSTORE_URL: 'esdb://b:2113' }).eventStoreUrl).toBe('esdb://b:2113');
    expect(() => loadConfig({ EVENT_STORE: 'esdb' })).toThrow(/EVENTSTORE_URL/);
  });
});
