import type { AllPosition } from '../event-store/event-store.port.ts';
import type { HttpApp } from './http.port.ts';

type ProjectionFigures = {
  readonly name: string;
  readonly generation: number;
  readonly building: boolean;
  readonly holdsLock: boolean;
  readonly checkpoint: AllPosition;
  readonly eventsApplied: number;
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
};

/** Prometheus text for /api/metrics: HTTP counts, event store head, each projection's lag and last error, the process's role. */
export const createMetrics = (app: HttpApp) => {
  const responses = new Map<string, number>();
  app.addHook('onResponse', async (request, reply) => {
    const key = `${request.method}|${Math.floor(reply.statusCode / 100)}xx`;
    responses.set(key, (responses.get(key) ?? 0) + 1);
  });

  const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ');

  return async (source: {
    projections: () => readonly ProjectionFigures[];
    head: () => Promise<AllPosition | null>;
    /** PROCESS_ROLE (decision 0066): which of several processes behind one balancer answered. */
    role: string;
  }) => {
    const head = await source.head().catch(() => null);
    const lines: string[] = [];
    lines.push('# HELP http_responses_total HTTP responses by method and status class.', '# TYPE http_responses_total counter');
    for (const [key, count] of responses) {
      const [method, status] = key.split('|');
      lines.push(`http_responses_total{method="${method}",status="${status}"} ${count}`);
    }
    lines.push('# HELP event_store_head_position Global position of the last event in $all.', '# TYPE event_store_head_position gauge');
    lines.push(`event_store_head_position ${head ? head.prepare.toString() : 0}`);
    lines.push(
      '# HELP projection_lag_events Events written but not yet applied (global position distance), per projection run by this process.',
      '# TYPE projection_lag_events gauge',
      '# HELP projection_events_applied_total Events applied by this process since start.',
      '# TYPE projection_events_applied_total counter',
      '# HELP projection_active 1 when this process holds the projection (one active instance across processes).',
      '# TYPE projection_active gauge',
      '# HELP projection_building 1 while a generation is rebuilt from zero.',
      '# TYPE projection_building gauge',
      '# HELP projection_last_error_timestamp_seconds When the last batch failed (0: the last batch succeeded); the message is a label.',
      '# TYPE projection_last_error_timestamp_seconds gauge',
    );
    for (const p of source.projections()) {
      const labels = `projection="${p.name}",generation="${p.generation}"`;
      const lag = head && p.holdsLock ? head.prepare - p.checkpoint.prepare : 0n;
      lines.push(`projection_lag_events{${labels}} ${lag > 0n ? lag.toString() : 0}`);
      lines.push(`projection_events_applied_total{${labels}} ${p.eventsApplied}`);
      lines.push(`projection_active{${labels}} ${p.holdsLock ? 1 : 0}`);
      lines.push(`projection_building{${labels}} ${p.building ? 1 : 0}`);
      const errorLabels = p.lastError ? `${labels},error="${escapeLabel(p.lastError.slice(0, 200))}"` : labels;
      lines.push(`projection_last_error_timestamp_seconds{${errorLabels}} ${p.lastErrorAt && p.lastError ? Math.floor(p.lastErrorAt.getTime() / 1000) : 0}`);
    }
    lines.push('# HELP process_role 1 for the role this process runs (PROCESS_ROLE: api, jobs or all).', '# TYPE process_role gauge');
    lines.push(`process_role{role="${escapeLabel(source.role)}"} 1`);
    lines.push('# HELP process_resident_memory_bytes Resident memory.', '# TYPE process_resident_memory_bytes gauge');
    lines.push(`process_resident_memory_bytes ${process.memoryUsage().rss}`);
    lines.push('# HELP process_uptime_seconds Seconds since the process started.', '# TYPE process_uptime_seconds gauge');
    lines.push(`process_uptime_seconds ${Math.floor(process.uptime())}`);
    return `${lines.join('\n')}\n`;
  };
};
