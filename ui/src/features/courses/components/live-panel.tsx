import { Alert, AspectRatio, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/i18n.ts';
import { confirmPresence, type LiveDetail, startCourse } from '../api/courses.ts';
import { useCourseStep } from '../hooks/use-course-step.ts';

/** "1 dan 02:03:04": the time left before the webinar. */
const countdown = (ms: number, days: (n: number) => string) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86_400);
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = `${pad(Math.floor((s % 86_400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return d > 0 ? `${days(d)} ${clock}` : clock;
};

/**
 * The live page of a webinar (course type 8; spec §4 "waiting for confirmation of presence
 * (countdown in seconds), missed, or recorded"; issue 17 item 5): before it, a countdown to the
 * start; while it runs, the room and each presence check with its seconds left; after it, whether
 * the attendee attended and the recording. The clock follows the server's, so a wrong clock on the
 * device neither opens nor closes a check early.
 */
export const LivePanel = (props: { courseId: number; live: LiveDetail; started: boolean; zoomUrl: string | null }) => {
  const { t } = useTranslation();
  const { live } = props;
  const offset = useMemo(() => new Date(live.serverTime).getTime() - Date.now(), [live.serverTime]);
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now() + offset), 1000);
    return () => window.clearInterval(timer);
  }, [offset]);
  const confirm = useCourseStep(props.courseId, async (checkIndex: number) => {
    if (!props.started) await startCourse(props.courseId);
    return confirmPresence(props.courseId, checkIndex);
  });
  const start = new Date(live.startsAt).getTime();
  const stop = new Date(live.stopsAt).getTime();
  const phase = now < start ? 'upcoming' : now < stop ? 'live' : 'ended';
  const open = live.checks.find((c) => new Date(c.opensAt).getTime() <= now && now < new Date(c.closesAt).getTime()) ?? null;
  const state = (c: LiveDetail['checks'][number]) =>
    c.confirmed ? 'confirmed' : new Date(c.closesAt).getTime() <= now ? 'missed' : open?.index === c.index ? 'open' : 'waiting';

  return (
    <Paper withBorder radius="md" p="md" data-testid="live-panel">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('live.title')}
          </Title>
          <Badge variant="default">{t(`live.phase.${phase}`)}</Badge>
        </Group>
        <Text size="sm">
          {formatDateTime(live.startsAt)} – {formatDateTime(live.stopsAt)} · {t('live.room', { room: live.roomId })}
        </Text>
        {phase === 'upcoming' ? (
          <Text fw={600} data-testid="live-countdown" aria-live="polite">
            {t('live.startsIn', { time: countdown(start - now, (n) => t('live.days', { count: n })) })}
          </Text>
        ) : null}
        {phase === 'live' ? (
          <>
            {props.zoomUrl ? (
              <Button component="a" href={props.zoomUrl} target="_blank" rel="noopener noreferrer" variant="default">
                {t('live.join')}
              </Button>
            ) : null}
            {open && !open.confirmed ? (
              <Alert color="yellow" title={t('live.confirmTitle')} role="alert">
                <Stack gap="xs">
                  <Text size="sm" data-testid="presence-countdown">
                    {t('live.secondsLeft', { count: Math.max(0, Math.ceil((new Date(open.closesAt).getTime() - now) / 1000)) })}
                  </Text>
                  <Group>
                    <Button onClick={() => confirm.mutate(open.index)} loading={confirm.isPending}>
                      {t('live.confirm')}
                    </Button>
                  </Group>
                </Stack>
              </Alert>
            ) : (
              <Text size="sm" c="dimmed">
                {t('live.waitingForCheck')}
              </Text>
            )}
          </>
        ) : null}
        {phase === 'ended' ? (
          <Stack gap="xs">
            <Text fw={600} data-testid="live-outcome">
              {t(live.attended ? 'live.attended' : 'live.notAttended')}
            </Text>
            {live.recordingVimeoId ? (
              <>
                <Text size="sm">{t('live.recorded')}</Text>
                <AspectRatio ratio={16 / 9}>
                  <iframe
                    src={`https://player.vimeo.com/video/${encodeURIComponent(live.recordingVimeoId)}`}
                    title={t('live.recording')}
                    allow="fullscreen; picture-in-picture"
                    style={{ border: 0 }}
                  />
                </AspectRatio>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {t('live.noRecording')}
              </Text>
            )}
          </Stack>
        ) : null}
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('live.checks', { needed: Math.ceil(live.checks.length / 2), total: live.checks.length })}
          </Text>
          <List size="sm" spacing={2} data-testid="presence-checks">
            {live.checks.map((c) => (
              <List.Item key={c.index}>
                {formatDateTime(c.opensAt)}: {t(`live.check.${state(c)}`)}
              </List.Item>
            ))}
          </List>
        </Stack>
      </Stack>
    </Paper>
  );
};
