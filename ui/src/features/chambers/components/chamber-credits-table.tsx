import { Alert, Anchor, Badge, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime, formatNumber } from '../../../lib/i18n.ts';
import { CHAMBER_CREDITS_KEY, type ChamberCredit, courseChamberCredits, ownChamberCredits, userChamberCredits } from '../api/chamber-credits.ts';

// Outline badges in dark shades: readable on white (WCAG AA).
const STATUS_COLOUR = { pending: 'blue.9', held: 'orange.9', reported: '#1b6e2f' } as const;

const Status = ({ credit }: { credit: ChamberCredit }) => {
  const { t } = useTranslation();
  const badge = (
    <Badge variant="outline" color={STATUS_COLOUR[credit.status]} data-testid="chamber-credit-status" data-status={credit.status}>
      {t(credit.status === 'held' && credit.heldReason === 'no-chamber' ? 'chambers.statuses.heldForChamber' : `chambers.statuses.${credit.status}`)}
    </Badge>
  );
  return (
    <Stack gap={2}>
      {credit.status === 'pending' && credit.lastError ? <Tooltip label={credit.lastError}>{badge}</Tooltip> : badge}
      {credit.status === 'reported' && credit.reportedAt ? (
        <Text size="xs" c="dimmed">
          {formatDateTime(credit.reportedAt)}
        </Text>
      ) : null}
      {credit.status === 'held' ? (
        <Text size="xs" c="dimmed">
          {t(credit.heldReason === 'no-chamber' ? 'chambers.heldForChamber' : 'chambers.held')}
        </Text>
      ) : null}
      {credit.status === 'pending' && credit.attempts > 0 ? (
        <Text size="xs" c="dimmed">
          {t('chambers.attempts', { count: credit.attempts })}
        </Text>
      ) : null}
    </Stack>
  );
};

/**
 * Credit points owed to the chambers (issue 17 item 6, decision 0030): earned when, reported when
 * (or why not yet). `by` says what each row names: the person (a course's list) or the course (a
 * person's list). Nothing shows where nothing is owed: most courses report to no chamber.
 */
const ChamberCreditsTable = ({ items, by, heading }: { items: readonly ChamberCredit[]; by: 'person' | 'course'; heading: string }) => {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="lg" data-testid="chamber-credits">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {heading}
        </Title>
        <TableRegion label={heading} minWidth={640}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{by === 'person' ? t('chambers.person') : t('chambers.course')}</Table.Th>
                <Table.Th>{t('chambers.chamber')}</Table.Th>
                <Table.Th ta="right">{t('chambers.points')}</Table.Th>
                <Table.Th>{t('chambers.earnedAt')}</Table.Th>
                <Table.Th>{t('chambers.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((c) => (
                <Table.Tr key={`${c.courseId}-${c.userId}`}>
                  <Table.Td>
                    {by === 'person' ? (
                      <Stack gap={0}>
                        <Text size="sm">{c.fullName}</Text>
                        <Text size="xs" c="dimmed">
                          {c.chamberMembershipNumber
                            ? t('chambers.memberNumber', { number: c.chamberMembershipNumber })
                            : c.licenceNumber
                              ? t('chambers.licenceNumber', { number: c.licenceNumber })
                              : t('chambers.noNumber')}
                        </Text>
                      </Stack>
                    ) : (
                      <Text size="sm">{c.courseTitle}</Text>
                    )}
                  </Table.Td>
                  <Table.Td>{c.chamber === null ? t('chambers.noChamber') : t(`exports.chambers.${c.chamber}`)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(c.points)}</Table.Td>
                  <Table.Td>{formatDateTime(c.earnedAt)}</Table.Td>
                  <Table.Td>
                    <Status credit={c} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableRegion>
      </Stack>
    </Paper>
  );
};

const Failed = () => {
  const { t } = useTranslation();
  return <Alert color="red">{t('chambers.loadFailed')}</Alert>;
};

/** On a course's participants tab: everyone's credit for this course. */
export const CourseChamberCredits = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: [...CHAMBER_CREDITS_KEY, 'course', courseId], queryFn: () => courseChamberCredits(courseId) });
  if (query.isError) return <Failed />;
  return <ChamberCreditsTable items={query.data?.items ?? []} by="person" heading={t('chambers.courseTitle')} />;
};

/** On an admin's page of a person: their credits on every course. */
export const UserChamberCredits = ({ userId }: { userId: number }) => {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: [...CHAMBER_CREDITS_KEY, 'user', userId], queryFn: () => userChamberCredits(userId) });
  if (query.isError) return <Failed />;
  return <ChamberCreditsTable items={query.data?.items ?? []} by="course" heading={t('chambers.userTitle')} />;
};

/** On one's completed courses: whether one's points reached the chamber, and where to add a missing number. */
export const OwnChamberCredits = () => {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: [...CHAMBER_CREDITS_KEY, 'own'], queryFn: ownChamberCredits });
  if (query.isError) return <Failed />;
  const items = query.data?.items ?? [];
  return (
    <Stack gap="sm">
      {items.some((c) => c.status === 'held') ? (
        <Alert color="orange" variant="light" data-testid="chamber-number-missing">
          {t('chambers.addNumber')}{' '}
          <Anchor component={Link} to="/profil">
            {t('chambers.toProfile')}
          </Anchor>
        </Alert>
      ) : null}
      <ChamberCreditsTable items={items} by="course" heading={t('chambers.ownTitle')} />
    </Stack>
  );
};
