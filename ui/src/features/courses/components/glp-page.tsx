import { Alert, Box, Card, Center, Image, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { publicCoursesQuery } from '../api/public-courses.ts';
import { pointsCount } from './course-badges.tsx';

/** spec §3 course type 9: a survey is answered at /anketa/{id}; every other course opens at its page. */
const SURVEY_TYPE = 9;
const coursePath = (course: { id: number; type: number }) => (course.type === SURVEY_TYPE ? `/anketa/${course.id}` : `/izobrazevanja/${course.id}`);

/**
 * /glp (spec §2 "embed"; issue 17 item 7, decision 0031): the public, published courses running now,
 * for partner sites (e.g. a pharmacy chamber) to show in an iframe. No header, menus or footer; each
 * course opens on the platform in the whole window (target="_top"), not inside the partner's frame.
 * The same list with or without a session.
 */
export const GlpPage = () => {
  const { t } = useTranslation();
  const query = useQuery(publicCoursesQuery);
  return (
    <Box component="main" id="main" p="md">
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('glp.title')}
        </Title>
        {query.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('glp.loading')} />
          </Center>
        ) : query.isError ? (
          <Alert color="red">{t('glp.loadFailed')}</Alert>
        ) : query.data.items.length === 0 ? (
          <Text c="dimmed">{t('glp.empty')}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {query.data.items.map((course) => (
              <li key={course.id}>
                <Card withBorder radius="md" padding="md" component="a" href={coursePath(course)} target="_top" data-course={course.id} h="100%">
                  <Card.Section>
                    <Image src={course.cover} h={140} alt="" fallbackSrc="/favicon.svg" />
                  </Card.Section>
                  <Stack gap={4} mt="sm">
                    <Text size="xs" c="dimmed">
                      {t(`courses.types.${course.type}`)}
                    </Text>
                    <Title order={2} size="h4" lh={1.25}>
                      {course.title}
                    </Title>
                    <Text size="sm" c="dimmed">
                      {t('courses.creditPoints', pointsCount(course.creditPoints))}
                    </Text>
                    {course.lecturer ? <Text size="sm">{t('glp.lecturer', { name: course.lecturer })}</Text> : null}
                  </Stack>
                </Card>
              </li>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Box>
  );
};
