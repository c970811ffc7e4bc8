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

  it("serves package code on another host than the platform, and refuses the platform's own host (cookies are a host's, whatever the port)", () => {
    expect(loadConfig({ PORT: '3000' }).packages).toMatchObject({ contentPort: 3001, contentOrigin: 'http://127.0.0.1:3001' });
    expect(loadConfig({ PORT: '3000', PUBLIC_URL: 'https://ucenje.example' }).packages.contentOrigin).toBe('http://localhost:3001');
    expect(loadConfig({ CONTENT_ORIGIN: 'https://vsebina.example/', PUBLIC_URL: 'https://ucenje.example' }).packages.contentOrigin).toBe(
      'https://vsebina.example',
    );
    expect(() => loadConfig({ PORT: '3000', CONTENT_ORIGIN: 'http://localhost:3001' })).toThrow(/CONTENT_ORIGIN/);
    expect(() => loadConfig({ PUBLIC_URL: 'https://ucenje.example', CONTENT_ORIGIN: 'https://ucenje.example:8443' })).toThrow(/another host/);
  });
});
