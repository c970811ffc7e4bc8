import { Anchor, Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApprovalsWaiting } from '../../../features/approvals/components/approvals-waiting.tsx';
import { listAdminCourses } from '../../../features/courses/api/admin-courses.ts';
import { exportsQuery } from '../../../features/exports/api/exports.ts';
import { listImports } from '../../../features/imports/api/imports.ts';
import { readMail } from '../../../features/mail/api/mail.ts';
import { platformStatsQuery } from '../../../features/stats/api/stats.ts';
import type { CurrentUser } from '../../../features/users/api/me.ts';
import { listDeletionRequests } from '../../../features/users/api/profile.ts';
import { listChangeRequests } from '../../../features/users/api/user-admin.ts';
import { hasSystemPermission } from '../../../features/users/roles.ts';
import { formatNumber } from '../../../lib/i18n.ts';

// Dark enough on white for small text (WCAG AA 4.5:1), as the course list's publishing gaps; Mantine's orange.9 is not.
const GAP_COLOR = '#a33a00';

/** spec §6 system permissions each part needs: course read 1017, users 1004, mail 1008, reports (the platform's figures) 1064. */
const COURSES = 1017;
const USERS = 1004;
const MAIL = 1008;
const PLATFORM = 1064;
const WEEK = 7 * 86_400_000;

/** Only what the person may read is asked for; a refusal simply leaves its part out. */
const quiet = { retry: false, staleTime: 30_000 } as const;

/**
 * An admin's or editor's home (issue 18): what needs attention first (courses a publication still
 * misses something for, open requests of managers and users, mail, exports and imports that failed
 * in the last week), then the platform's figures.
 */
export const AdminHome = ({ me }: { me: CurrentUser }) => {
  const { t } = useTranslation();
  const may = (permission: number) => hasSystemPermission(me, permission);
  const drafts = useQuery({
    queryKey: ['home', 'incomplete-courses'],
    queryFn: () =>
      listAdminCourses(
        { search: '', sort: 'updatedAt', order: 'desc', page: 1, pageSize: 50 },
        { type: null, status: null, published: false, academyId: null, tagId: null },
      ),
    enabled: may(COURSES),
    ...quiet,
  });
  const changes = useQuery({ queryKey: ['home', 'change-requests'], queryFn: () => listChangeRequests('open'), enabled: may(USERS), ...quiet });
  const deletions = useQuery({ queryKey: ['home', 'deletion-requests'], queryFn: listDeletionRequests, enabled: may(USERS), ...quiet });
  const mail = useQuery({ queryKey: ['home', 'mail'], queryFn: () => readMail(''), enabled: may(MAIL), ...quiet });
  const exports = useQuery({ ...exportsQuery, queryKey: ['home', 'exports'], refetchInterval: false, ...quiet });
  // Imports are the admin's (1005, decision 0025): an editor's home does not ask for them.
  const imports = useQuery({ queryKey: ['home', 'imports'], queryFn: () => listImports(1), enabled: may(1005), ...quiet });
  const platform = useQuery({ ...platformStatsQuery(null), enabled: may(PLATFORM), ...quiet });
  // Issue 36: the course versions waiting for this person's signature (1071).
  const waitingApprovals = useApprovalsWaiting(may(1071));

  const since = Date.now() - WEEK;
  const incomplete = (drafts.data?.items ?? []).filter((c) => c.gaps.length > 0);
  const failedMail = (mail.data?.log ?? []).filter((m) => m.status === 'failed' && Date.parse(m.updatedAt) >= since).length;
  const failedExports = (exports.data?.items ?? []).filter((e) => e.status === 'error' && Date.parse(e.createdAt) >= since).length;
  const failedImports = (imports.data?.items ?? []).filter((i) => i.status === 'failed').length;
  const requests = (changes.data?.items.length ?? 0) + (deletions.data?.items.length ?? 0);
  const attention: { key: string; to: string; text: string }[] = [
    ...(waitingApprovals > 0 ? [{ key: 'approvals', to: '/odobritve', text: t('home.admin.approvalsWaiting', { count: waitingApprovals }) }] : []),
    ...(requests > 0 ? [{ key: 'requests', to: '/admin/zahteve', text: t('home.admin.requests', { count: requests }) }] : []),
    ...(failedMail > 0 ? [{ key: 'mail', to: '/admin/posta', text: t('home.admin.failedMail', { count: failedMail }) }] : []),
    ...(failedExports > 0 ? [{ key: 'exports', to: '/admin/exports', text: t('home.admin.failedExports', { count: failedExports }) }] : []),
    ...(failedImports > 0 ? [{ key: 'imports', to: '/admin/imports', text: t('home.admin.failedImports', { count: failedImports }) }] : []),
  ];
  const s = platform.data;
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="lg" data-testid="home-attention">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('home.admin.attention')}
          </Title>
          {incomplete.length === 0 && attention.length === 0 ? <Text c="dimmed">{t('home.admin.nothing')}</Text> : null}
          {attention.length > 0 ? (
            <List spacing={4}>
              {attention.map((a) => (
                <List.Item key={a.key}>
                  <Anchor component={Link} to={a.to}>
                    {a.text}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          ) : null}
          {incomplete.length > 0 ? (
            <Stack gap={4} data-testid="home-incomplete">
              <Text fw={600} size="sm">
                {t('home.admin.incomplete', { count: incomplete.length })}
              </Text>
              {incomplete.slice(0, 5).map((c) => (
                // The gaps wrap under the title: in one row they widened a phone's page (390 px) to 644 px.
                <Group key={c.id} gap="xs" wrap="wrap">
                  <Anchor component={Link} to={`/admin/courses/${c.id}/general`} size="sm">
                    {c.title}
                  </Anchor>
                  {c.gaps.map((gap) => (
                    <Badge key={gap} variant="outline" color={GAP_COLOR} size="sm" style={{ flexShrink: 0 }}>
                      {t(`adminCourses.gap.${gap}`)}
                    </Badge>
                  ))}
                </Group>
              ))}
              {incomplete.length > 5 ? (
                <Anchor component={Link} to="/admin/courses" size="sm">
                  {t('home.admin.allCourses')}
                </Anchor>
              ) : null}
            </Stack>
          ) : null}
        </Stack>
      </Paper>
      {s ? (
        <Paper withBorder radius="md" p="lg" data-testid="home-platform">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('home.admin.platform')}
            </Title>
            <Group gap="xl">
              {[
                [t('stats.platform.participantsNow'), s.participants],
                [t('stats.platform.enrollments'), s.enrollments],
                [t('stats.platform.completions'), s.completions],
                [t('stats.platform.views30'), s.views30],
              ].map(([label, value]) => (
                <Stack key={String(label)} gap={0} miw={120}>
                  <Text size="sm" c="dimmed">
                    {label}
                  </Text>
                  <Text fw={700} fz={26}>
                    {formatNumber(Number(value))}
                  </Text>
                </Stack>
              ))}
            </Group>
            <Anchor component={Link} to="/admin/stats">
              {t('home.openStats')}
            </Anchor>
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
};
