import { Alert, AspectRatio, Button, Paper, Stack, Text, Typography } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Block, type BlockRecord, readAlternative, reportVideo, type VideoFields } from '../api/courses.ts';
import { useCourseStep } from '../hooks/use-course-step.ts';
import { addPlayed, type Played, playedSeconds, watchedSeconds } from '../lib/watched-time.ts';

/**
 * Progress is the time watched (played ranges, issue 33 item 8), not the player's position: reported
 * every 15 s of it, when playback pauses or ends, and once at 90 %. The server takes it no faster than
 * playback could have gone since the last report.
 */
const REPORT_EVERY_SECONDS = 15;
const DONE_SHARE = 0.9;
/** A 90 % report the server cut short is sent again after this while the page is open (its allowance grows 2 s a second). */
const RESEND_AFTER_MS = 5_000;
const RESEND_LIMIT = 60;
const VIMEO_ORIGIN = 'https://player.vimeo.com';

type Reporter = (seconds: number, duration: number) => void;

/**
 * Sends progress at most once in flight and only when it moved on, so a paused video sends nothing.
 * What was watched on an earlier visit (`before`, as recorded when the page opened) counts on: a
 * participant coming back goes on from there rather than watching it all again.
 */
const useProgressReporter = (courseId: number, blockId: number, done: boolean, before: number): Reporter => {
  const step = useCourseStep(courseId, (p: { seconds: number; duration: number }) => reportVideo(courseId, blockId, p.seconds, p.duration), { silent: true });
  const lastSent = useRef(before);
  // Done once the server says so, not when the browser claims 90 %: the server takes watched time no faster
  // than playback could have gone (a first report counts 10 s), so a claim it cut short is sent again.
  const doneConfirmed = useRef(done);
  const retries = useRef(0);
  const retry = useRef<ReturnType<typeof setTimeout> | null>(null);
  const base = useRef(before);
  const latest = useRef({ seconds: before, duration: 0 });
  useEffect(
    () => () => {
      if (retry.current) clearTimeout(retry.current);
    },
    [],
  );
  const send = (seconds: number, duration: number) => {
    lastSent.current = seconds;
    step.mutate(
      { seconds, duration },
      {
        onSuccess: (result) => {
          if (result.events.includes('VideoCompleted') || result.completed) doneConfirmed.current = true;
          else if (seconds >= duration * DONE_SHARE && retries.current < RESEND_LIMIT) {
            retries.current += 1;
            retry.current = setTimeout(() => {
              retry.current = null;
              send(latest.current.seconds, latest.current.duration);
            }, RESEND_AFTER_MS);
          }
        },
      },
    );
  };
  return (watched, duration) => {
    const seconds = Math.min(base.current + watched, duration);
    latest.current = { seconds, duration };
    if (!(duration > 0) || step.isPending || doneConfirmed.current) return;
    const reachesDone = seconds >= duration * DONE_SHARE;
    if (!reachesDone && seconds - lastSent.current < REPORT_EVERY_SECONDS) return;
    // At 90 %: once, then again only by the resend (which takes the newest figure) or with more watched.
    if (reachesDone && (retry.current || seconds <= lastSent.current)) return;
    send(seconds, duration);
  };
};

const FileVideo = ({ url, report }: { url: string; report: Reporter }) => {
  const { t } = useTranslation();
  return (
    <video
      controls
      preload="metadata"
      src={url}
      style={{ width: '100%', borderRadius: 8, background: '#000' }}
      aria-label={t('courses.video.player')}
      onTimeUpdate={(e) => report(playedSeconds(e.currentTarget.played), e.currentTarget.duration)}
      onPause={(e) => report(playedSeconds(e.currentTarget.played), e.currentTarget.duration)}
      onEnded={(e) => report(playedSeconds(e.currentTarget.played), e.currentTarget.duration)}
    >
      <track kind="captions" />
    </video>
  );
};

/** The Vimeo player's postMessage API: subscribe to timeupdate and ended once the player is ready. */
const VimeoVideo = ({ vimeoId, report }: { vimeoId: string; report: Reporter }) => {
  const { t } = useTranslation();
  const frame = useRef<HTMLIFrameElement>(null);
  const reportRef = useRef(report);
  reportRef.current = report;
  useEffect(() => {
    // Where the player stood at its last report, and what it has played: only steps of playback count.
    let position: number | null = null;
    let played: Played = [];
    const post = (message: object) => frame.current?.contentWindow?.postMessage(JSON.stringify(message), VIMEO_ORIGIN);
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== VIMEO_ORIGIN || event.source !== frame.current?.contentWindow) return;
      let message: { event?: string; data?: { seconds?: number; duration?: number } };
      try {
        message = typeof event.data === 'string' ? JSON.parse(event.data) : event.data;
      } catch {
        return;
      }
      if (message.event === 'ready') {
        post({ method: 'addEventListener', value: 'timeupdate' });
        post({ method: 'addEventListener', value: 'pause' });
        post({ method: 'addEventListener', value: 'ended' });
      } else if (message.data && typeof message.data.seconds === 'number' && typeof message.data.duration === 'number') {
        if (position !== null && message.event === 'timeupdate') played = addPlayed(played, position, message.data.seconds);
        position = message.data.seconds;
        reportRef.current(watchedSeconds(played), message.data.duration);
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return (
    <AspectRatio ratio={16 / 9}>
      <iframe
        ref={frame}
        src={`${VIMEO_ORIGIN}/video/${encodeURIComponent(vimeoId)}?api=1&dnt=1`}
        title={t('courses.video.player')}
        allow="autoplay; fullscreen; picture-in-picture"
        allowFullScreen
        style={{ border: 0, borderRadius: 8 }}
      />
    </AspectRatio>
  );
};

/** The alternative to watching: an article (sanitised when it was saved) or a text file, then "read". */
const Alternative = ({ courseId, block, done }: { courseId: number; block: Block; done: boolean }) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const read = useCourseStep(courseId, () => readAlternative(courseId, block.id));
  const alternative = (block.fields as VideoFields).alternative;
  if (!alternative || done) return null;
  if (!open) {
    return (
      <Button variant="subtle" onClick={() => setOpen(true)} style={{ alignSelf: 'flex-start' }}>
        {t('courses.video.alternative')}
      </Button>
    );
  }
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        {alternative.kind === 'article' ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the article was sanitised by the API when it was saved
          <Typography dangerouslySetInnerHTML={{ __html: alternative.html }} />
        ) : (
          <Button component="a" href={alternative.fileUrl} target="_blank" rel="noopener noreferrer" variant="default">
            {t('courses.openFile')}
          </Button>
        )}
        <Button onClick={() => read.mutate(undefined)} loading={read.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('courses.video.alternativeRead')}
        </Button>
      </Stack>
    </Paper>
  );
};

export const VideoBlock = ({ courseId, block, record }: { courseId: number; block: Block; record: BlockRecord | undefined }) => {
  const { t } = useTranslation();
  const fields = block.fields as VideoFields;
  const done = record?.done ?? false;
  const report = useProgressReporter(courseId, block.id, done, record?.videoSeconds ?? 0);
  return (
    <Stack gap="md">
      {fields.vimeoId ? <VimeoVideo vimeoId={fields.vimeoId} report={report} /> : fields.fileUrl ? <FileVideo url={fields.fileUrl} report={report} /> : null}
      {done ? (
        <Alert color="green" data-testid="video-done">
          {t('courses.video.watched')}
        </Alert>
      ) : (
        <Text size="sm" c="dimmed">
          {t('courses.video.watchHint')}
        </Text>
      )}
      <Alternative courseId={courseId} block={block} done={done} />
    </Stack>
  );
};
