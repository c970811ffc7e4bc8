import { Alert, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnHeads, numeric } from '../../../components/column-heads.tsx';
import { FiguresTable } from '../../../components/figures-table.tsx';
import { NpsBreakdownTable } from '../../../components/nps-breakdown-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDate, formatDateTime, formatEuroCents, formatNps, formatNumber, formatPercent, formatPeriod } from '../../../lib/i18n.ts';
import { NPS_LEVEL_COLORS } from '../../../lib/nps-level-colors.ts';
import type { CourseReport, CourseReportEntry, ReportNps } from '../api/course-reports.ts';
import { ColumnChart } from './column-chart.tsx';

const CATEGORY_COLORS = { detractor: '#b42318', neutral: '#8a5a00', promoter: '#1b6e2f' } as const;
const categoryOf = (score: number) => (score >= 9 ? 'promoter' : score >= 7 ? 'neutral' : 'detractor');
const KINDS = ['unit', 'company', 'group', 'profession'] as const;
const COST_ITEMS = ['archiveAmount', 'productionAmount', 'detailedNpsAmount', 'insidePoolAmount', 'otherAmount', 'fixedAmount'] as const;

/** "Ves čas", or "Termin 2: 1. 3. 2026 – 30. 6. 2026". */
export const useIntervalText = () => {
  const { t } = useTranslation();
  return (entry: Pick<CourseReportEntry, 'intervalId' | 'interval'>) =>
    entry.interval === null
      ? t('courseReports.allTime')
      : t('courseReports.intervalN', { n: entry.intervalId, from: formatDate(entry.interval.startsAt), to: formatDate(entry.interval.stopsAt) });
};

const Figure = ({ label, value, color, testId }: { label: string; value: string; color?: string; testId?: string }) => (
  <Paper withBorder p="sm" className="report-figure">
    <Text size="sm" c="dimmed">
      {label}
    </Text>
    <Text fw={700} fz={24} c={color} data-testid={testId}>
      {value}
    </Text>
  </Paper>
);

const Section = ({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) => (
  <Stack gap="sm" component="section" data-testid={testId} className="report-section">
    <Title order={2} size="h3" c="brand.7">
      {title}
    </Title>
    {children}
  </Stack>
);

const Note = ({ children }: { children: ReactNode }) => (
  <Text c="dimmed" size="sm">
    {children}
  </Text>
);

const NpsSection = ({ nps, report }: { nps: ReportNps; report: CourseReport }) => {
  const { t } = useTranslation();
  return (
    <Section title={t('courseReports.nps', { name: nps.name || t('courseReports.survey') })} testId="report-nps">
      <SimpleGrid cols={{ base: 2, sm: 3 }}>
        <Figure label={t('stats.nps.score')} value={formatNps(nps.score)} color={NPS_LEVEL_COLORS[nps.level]} testId="report-nps-score" />
        <Figure label={t('stats.nps.grade')} value={t(`stats.nps.grades.${nps.grade}`)} color={NPS_LEVEL_COLORS[nps.level]} />
        <Figure label={t('stats.nps.answers')} value={formatNumber(nps.answers)} testId="report-nps-answers" />
        <Figure label={t('courseReports.promoters')} value={formatNumber(nps.promoters)} color={CATEGORY_COLORS.promoter} />
        <Figure label={t('courseReports.neutrals')} value={formatNumber(nps.neutrals)} color={CATEGORY_COLORS.neutral} />
        <Figure label={t('courseReports.detractors')} value={formatNumber(nps.detractors)} color={CATEGORY_COLORS.detractor} />
      </SimpleGrid>
      <ColumnChart
        title={t('courseReports.distribution')}
        series={[{ name: t('stats.nps.answers'), color: '#0b6e69' }]}
        points={nps.distribution.map((d) => ({ label: String(d.score), values: [d.count], color: CATEGORY_COLORS[categoryOf(d.score)] }))}
      />
      {nps.reasons !== null ? (
        <>
          <Title order={3} size="h5">
            {t('courseReports.reasons')}
          </Title>
          {nps.reasons.length === 0 ? (
            <Note>{t('courseReports.noReasons')}</Note>
          ) : (
            <TableRegion label={t('courseReports.reasons')}>
              <Table striped aria-label={t('courseReports.reasons')}>
                <ColumnHeads columns={[t('courseReports.reason'), t('courseReports.category'), ...numeric([t('stats.nps.answers')])]} />
                <Table.Tbody>
                  {nps.reasons.map((r) => (
                    <Table.Tr key={`${r.category}-${r.reason}`}>
                      <Table.Td>{r.reason}</Table.Td>
                      <Table.Td>{t(`courseReports.categories.${r.category}`)}</Table.Td>
                      <Table.Td ta="right">{formatNumber(r.count)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableRegion>
          )}
        </>
      ) : null}
      {nps.detailed !== null
        ? KINDS.map((kind) => (
            <Stack key={kind} gap={4}>
              <Title order={3} size="h5">
                {t('courseReports.detailed', { kind: t(`courseReports.detailedKinds.${kind}`) })}
              </Title>
              {nps.detailed?.[kind].length === 0 ? (
                <Note>{t('courseReports.noAnswers')}</Note>
              ) : (
                <TableRegion label={t('courseReports.detailed', { kind: t(`courseReports.detailedKinds.${kind}`) })}>
                  <NpsBreakdownTable
                    aria-label={t('courseReports.detailed', { kind: t(`courseReports.detailedKinds.${kind}`) })}
                    kindLabel={t(`stats.kinds.${kind}`)}
                    rows={nps.detailed?.[kind] ?? []}
                  />
                </TableRegion>
              )}
            </Stack>
          ))
        : null}
      {report.withheld.detailedNps ? <Note>{t('courseReports.detailedWithheld')}</Note> : null}
    </Section>
  );
};

/**
 * A course report's figures (issue 17 item 3) as the tab and the print view show them: the same
 * sections as the PDF, each figure as of the report's date; what the reader may not see is said so.
 */
export const CourseReportView = ({ report, heading }: { report: CourseReport; heading: ReactNode }) => {
  const { t } = useTranslation();
  const intervalText = useIntervalText();
  const r = report.report;
  const p = report.participation;
  const amount = (key: string) => Number(report.costs?.costs[key] ?? 0);
  return (
    <Stack gap="lg" data-testid="course-report">
      <Stack gap={4}>
        {heading}
        <Text size="sm" c="dimmed" data-testid="report-meta">
          {t('courseReports.meta', {
            period: intervalText(r),
            date: formatDateTime(r.date),
            user: r.user?.name || t('courseReports.unknownUser'),
            at: formatDateTime(r.timeCreated),
          })}
        </Text>
        {report.scope === 'community' ? (
          <Alert color="blue" variant="light">
            {t('courseReports.community')}
          </Alert>
        ) : null}
      </Stack>

      <Section title={t('courseReports.participation')} testId="report-participation">
        <SimpleGrid cols={{ base: 2, sm: 3 }}>
          <Figure label={t('courseReports.participants')} value={formatNumber(p.participants)} testId="report-participants" />
          <Figure label={t('courseReports.completions')} value={formatNumber(p.completions)} testId="report-completions" />
          <Figure label={t('courseReports.completionRate')} value={formatPercent(p.completionRate)} />
          <Figure label={t('courseReports.successRate')} value={formatPercent(p.successRate)} testId="report-success-rate" />
          <Figure label={t('courseReports.firstAttemptRate')} value={formatPercent(p.firstAttemptRate)} />
          <Figure label={t('courseReports.averageScore')} value={formatPercent(p.averageScore)} testId="report-average-score" />
          <Figure label={t('courseReports.creditPoints')} value={formatNumber(p.creditPointsIssued)} testId="report-credit-points" />
        </SimpleGrid>
        {report.timeline.periods.length === 0 ? (
          <Note>{t('courseReports.noParticipants')}</Note>
        ) : (
          <ColumnChart
            title={t(`courseReports.timeline.${report.timeline.bucket}`)}
            series={[
              { name: t('courseReports.firstOpen'), color: '#8cc9c4' },
              { name: t('courseReports.completions'), color: '#0b6e69' },
            ]}
            points={report.timeline.periods.map((x) => ({ label: formatPeriod(x.period, report.timeline.bucket), values: [x.participants, x.completions] }))}
          />
        )}
      </Section>

      {report.nps.length === 0 ? (
        <Section title={t('courseReports.npsTitle')}>
          <Note>{t('courseReports.noNps')}</Note>
        </Section>
      ) : (
        report.nps.map((nps) => <NpsSection key={nps.blockId} nps={nps} report={report} />)
      )}

      {report.children !== null ? (
        <Section title={t('courseReports.units')} testId="report-units">
          {report.children.length === 0 ? (
            <Note>{t('courseReports.noUnits')}</Note>
          ) : (
            <TableRegion label={t('courseReports.units')}>
              <FiguresTable
                aria-label={t('courseReports.units')}
                columns={[
                  t('stats.kinds.unit'),
                  ...numeric([
                    ...(['participants', 'completions', 'completionRate', 'successRate'] as const).map((key) => t(`courseReports.${key}`)),
                    t('stats.nps.score'),
                  ]),
                ]}
                rows={report.children.map((c) => ({
                  key: c.id,
                  name: c.name,
                  figures: [
                    formatNumber(c.participants),
                    formatNumber(c.completions),
                    formatPercent(c.completionRate),
                    formatPercent(c.successRate),
                    formatNps(c.npsScore),
                  ],
                }))}
              />
            </TableRegion>
          )}
        </Section>
      ) : null}

      <Section title={t('stats.costs.title')} testId="report-costs">
        {report.costs === null ? (
          <Note>{t('courseReports.costsWithheld')}</Note>
        ) : (
          <>
            <SimpleGrid cols={{ base: 2, sm: 3 }}>
              <Figure label={t('stats.costs.views')} value={formatNumber(report.costs.figures.views)} />
              <Figure label={t('stats.costs.total')} value={formatEuroCents(report.costs.figures.totalAmount)} />
              <Figure label={t('stats.costs.final')} value={formatEuroCents(report.costs.figures.finalAmount)} testId="report-final-amount" />
            </SimpleGrid>
            <TableRegion label={t('stats.costs.items')}>
              <Table striped aria-label={t('stats.costs.items')}>
                <ColumnHeads columns={[t('courseReports.item'), ...numeric([t('courseReports.amount')])]} />
                <Table.Tbody>
                  {COST_ITEMS.map((key) => (
                    <Table.Tr key={key}>
                      <Table.Td>{t(`stats.costs.fields.${key}`)}</Table.Td>
                      <Table.Td ta="right">{formatEuroCents(amount(key))}</Table.Td>
                    </Table.Tr>
                  ))}
                  <Table.Tr>
                    <Table.Td>
                      {t('courseReports.viewsItem', { views: formatNumber(report.costs.figures.views), price: formatEuroCents(amount('viewAmount')) })}
                    </Table.Td>
                    <Table.Td ta="right">{formatEuroCents(report.costs.figures.viewsAmount)}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Td>{t('stats.costs.total')}</Table.Td>
                    <Table.Td ta="right">{formatEuroCents(report.costs.figures.totalAmount)}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Td>{t('stats.costs.fields.discount')}</Table.Td>
                    <Table.Td ta="right">{formatPercent(amount('discount'))}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Td fw={700}>{t('stats.costs.final')}</Table.Td>
                    <Table.Td ta="right" fw={700}>
                      {formatEuroCents(report.costs.figures.finalAmount)}
                    </Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </TableRegion>
            <Note>{report.costs.setAt ? t('courseReports.costsSet', { at: formatDateTime(report.costs.setAt) }) : t('courseReports.costsDefault')}</Note>
          </>
        )}
      </Section>

      <Section title={t('courseReports.comments')} testId="report-comments">
        {report.comments === null ? (
          <Note>{t('courseReports.commentsWithheld')}</Note>
        ) : report.comments.length === 0 ? (
          <Note>{t('courseReports.noComments')}</Note>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {report.comments.map((c) => (
              <li key={c.id} style={{ borderLeft: '3px solid #d0d7de', paddingLeft: 10 }} data-testid="report-comment">
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {c.message}
                </Text>
                <Text size="xs" c="dimmed">
                  {[formatDateTime(c.createdAt), c.reply ? t('courseReports.reply') : null, c.answered ? t('courseReports.answered') : null]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Section>
    </Stack>
  );
};
