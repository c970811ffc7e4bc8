import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerPlay, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatNumber } from '../../../lib/i18n.ts';
import type { Block, BlockRecord, PackageFields, StepResult } from '../api/courses.ts';
import { commitPackage, launchPackageItem, type PackageItem, type PackageLaunch, packageCommitPath } from '../api/packages.ts';
import { type ItemProgress, type ItemState, itemState, progressOfRecord, progressOfResume } from '../lib/package-items.ts';
import type { ScormSession } from '../lib/scorm-player.ts';

/** How often the records are read while a cmi5 AU is open: its statements reach the platform's LRS, not the player. */
const CMI5_POLL_MS = 3_000;

const STATE_COLORS: Record<ItemState, string> = { notStarted: 'gray', inProgress: 'blue', completed: 'teal', passed: 'green', failed: 'red' };

/** What the content origin may do in the frame: run its scripts as its own origin, forms, pop-ups and downloads; never navigate the platform's page. */
const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads allow-modals';

type Opened = { launch: PackageLaunch; item: PackageItem };

/**
 * One item (SCO or AU) being played in a frame on the content origin. SCORM: scorm-again's API is
 * made in this page before the frame loads (the frame's bridge reads the saved state from it at
 * once) and each commit is forwarded to the platform with the participant's token, which never
 * reaches the frame; cmi5: the AU talks to the platform's LRS itself, and the records are read
 * every few seconds so the block shows done when it is. The frame's URL is exactly what the launch
 * returned.
 */
const PackagePlayer = (props: {
  courseId: number;
  blockId: number;
  opened: Opened;
  onProgress: (progress: ItemProgress) => void;
  onCommitted: (result: StepResult) => void;
  refresh: () => Promise<void>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const { launch, item } = props.opened;
  const [src, setSrc] = useState<string | null>(null);
  // The latest callbacks, so the session lives as long as the launch and not one render.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const refresh = () => latest.current.refresh();
    if (launch.standard === 'cmi5') {
      setSrc(launch.url);
      const timer = setInterval(() => void refresh(), CMI5_POLL_MS);
      return () => {
        clearInterval(timer);
        void refresh();
      };
    }
    let session: ScormSession | null = null;
    let ended = false;
    let warned = false;
    const leave = () => session?.leave();
    window.addEventListener('pagehide', leave);
    void import('../lib/scorm-player.ts')
      .then(({ startScormSession }) =>
        startScormSession({
          launch,
          commitUrl: packageCommitPath(props.courseId, props.blockId),
          masteryScore: item.masteryScore,
          send: (url, body, options) => commitPackage(url, body, options),
          onCommitted: (result, progress) => {
            latest.current.onProgress(progress);
            latest.current.onCommitted(result);
            void refresh();
          },
          onFailed: () => {
            if (warned) return;
            warned = true;
            notifications.show({ color: 'red', message: t('courses.package.commitFailed') });
          },
        }),
      )
      .then((started) => {
        if (ended) {
          void started.close();
          return;
        }
        session = started;
        setSrc(launch.url);
      })
      .catch(() => notifications.show({ color: 'red', message: t('courses.package.launchFailed') }));
    return () => {
      ended = true;
      window.removeEventListener('pagehide', leave);
      void session?.close().then(refresh);
    };
  }, [launch, item.masteryScore, props.courseId, props.blockId, t]);

  return (
    <Stack gap="sm" component="section" aria-label={t('courses.package.playing', { title: item.title })} data-testid="package-player">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {item.title}
        </Text>
        <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={props.onClose} data-testid="package-close">
          {t('courses.package.close')}
        </Button>
      </Group>
      {src ? (
        <iframe
          title={t('courses.package.frame')}
          src={src}
          sandbox={FRAME_SANDBOX}
          allow="fullscreen; autoplay"
          referrerPolicy="origin"
          style={{
            display: 'block',
            width: '100%',
            maxWidth: '100%',
            height: '70vh',
            minHeight: 320,
            border: '1px solid var(--mantine-color-gray-3)',
            borderRadius: 8,
          }}
        />
      ) : (
        <Text size="sm" c="dimmed" role="status">
          {t('common.loading')}
        </Text>
      )}
    </Stack>
  );
};

/**
 * A SCORM or cmi5 package block (issue 35 item 2): its items with their state and score, each
 * launched (or resumed, on any device) into the player; the block is done when the package meets
 * the author's rule, which the server decides from what the package reports.
 */
export const PackageBlock = ({ courseId, block, record }: { courseId: number; block: Block; record: BlockRecord | undefined }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fields = block.fields as PackageFields;
  const items = fields.items ?? [];
  const [opened, setOpened] = useState<Opened | null>(null);
  // What this visit learnt of each item (a launch's saved state, then each commit): newer than the record.
  const [known, setKnown] = useState<Record<string, ItemProgress>>({});
  const courseCompleted = useRef(false);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['user-course', courseId] });
    await queryClient.invalidateQueries({ queryKey: ['user-courses'] });
  };
  const launch = useMutation({
    mutationFn: (item: PackageItem) => launchPackageItem(courseId, block.id, item.id),
    onSuccess: (launched, item) => {
      setKnown((k) => ({ ...k, [item.id]: progressOfResume(launched.resume) }));
      setOpened({ launch: launched, item });
      void refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('courses.package.launchFailed') }),
  });

  // The record holds the block's result, which is its item's when the package has one.
  const progressOf = (item: PackageItem): ItemProgress | null =>
    known[item.id] ??
    (items.length === 1
      ? progressOfRecord(record)
      : record?.done
        ? { completion: 'completed', success: null, score: null, started: true }
        : record?.opened
          ? null
          : { completion: null, success: null, score: null, started: false });

  if (opened) {
    return (
      <PackagePlayer
        courseId={courseId}
        blockId={block.id}
        opened={opened}
        refresh={refresh}
        onProgress={(progress) => setKnown((k) => ({ ...k, [opened.item.id]: progress }))}
        onCommitted={(result) => {
          if (result.completed) courseCompleted.current = true;
        }}
        onClose={() => {
          // A cmi5 AU reported to the LRS, not to this page: the records say how it stands now.
          if (opened.launch.standard === 'cmi5') setKnown((k) => Object.fromEntries(Object.entries(k).filter(([itemId]) => itemId !== opened.item.id)));
          setOpened(null);
          if (courseCompleted.current) navigate(`/izobrazevanja/${courseId}/konec`);
        }}
      />
    );
  }

  const rule =
    fields.completion === 'score' ? t('courses.package.rules.score', { threshold: fields.threshold ?? 0 }) : t(`courses.package.rules.${fields.completion}`);
  return (
    <Stack gap="md" data-testid="package-block">
      {record?.done ? (
        <Alert color="green" data-testid="package-done">
          {t('courses.package.done')}
        </Alert>
      ) : (
        <Text size="sm" c="dimmed">
          {rule}
        </Text>
      )}
      <Stack gap="xs" component="ul" aria-label={t('courses.package.items')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((item) => {
          const progress = progressOf(item);
          const state = progress ? itemState(progress) : null;
          const action = state === null || state === 'notStarted' ? t('courses.package.launch') : t('courses.package.resume');
          return (
            <Paper component="li" key={item.id} withBorder radius="md" p="sm" data-testid="package-item">
              <Group justify="space-between" gap="sm">
                <Stack gap={4} style={{ minWidth: 0, flex: '1 1 200px' }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {item.title}
                  </Text>
                  <Group gap="xs">
                    {state ? (
                      <Badge color={STATE_COLORS[state]} variant="light" data-testid="package-item-state">
                        {t(`courses.package.states.${state}`)}
                      </Badge>
                    ) : null}
                    {progress?.score !== null && progress?.score !== undefined ? (
                      <Text size="sm" data-testid="package-item-score">
                        {t('courses.package.score', { score: formatNumber(progress.score) })}
                      </Text>
                    ) : null}
                  </Group>
                </Stack>
                <Button
                  leftSection={<IconPlayerPlay size={16} aria-hidden />}
                  loading={launch.isPending && launch.variables?.id === item.id}
                  disabled={launch.isPending}
                  onClick={() => launch.mutate(item)}
                  aria-label={t('courses.package.launchItem', { action, title: item.title })}
                >
                  {action}
                </Button>
              </Group>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
};
