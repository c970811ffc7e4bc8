import { Alert, AspectRatio, Button, Typography } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Block } from '../api/courses.ts';
import { pointsCount } from './course-badges.tsx';

/** Blocks that are done by being opened: article, credit points, text file and typeform. */
export const ContentBlock = ({ block }: { block: Block }) => {
  const { t } = useTranslation();
  const fields = block.fields;
  switch (fields.kind) {
    case 'article':
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the article was sanitised by the API when it was saved
      return <Typography dangerouslySetInnerHTML={{ __html: fields.html }} />;
    case 'points':
      return (
        <Alert color="brand" variant="light" data-testid="points-block">
          {t('courses.points.earned', pointsCount(fields.points))}
        </Alert>
      );
    case 'textFile':
      return (
        <Button
          component="a"
          href={fields.fileUrl}
          target="_blank"
          rel="noopener noreferrer"
          leftSection={<IconFileText size={18} aria-hidden />}
          variant="default"
        >
          {t('courses.openFile')}
        </Button>
      );
    case 'interactr':
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the server kept only an Interactr iframe of the embed code
      return <AspectRatio ratio={16 / 9} dangerouslySetInnerHTML={{ __html: fields.html }} data-testid="interactr-block" />;
    case 'typeform':
      return (
        <AspectRatio ratio={4 / 3}>
          <iframe src={`https://form.typeform.com/to/${encodeURIComponent(fields.typeformId)}`} title={block.name} style={{ border: 0 }} />
        </AspectRatio>
      );
    default:
      return null;
  }
};
