import { Alert, Anchor, AspectRatio, Group, Stack, Text, Typography } from '@mantine/core';
import { IconExternalLink, IconFileText, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { safeArticleHtml, safeInteractrHtml } from '../lib/safe-html.ts';

/**
 * The pieces of a version under review that show media (issue 36 item 2): the way the participant
 * page shows them (an article as formatted text, a Vimeo or file video in its player, a text file
 * as a link), without what the participant page records (watched time, a read alternative). The UI
 * features do not import one another, so these mirror features/courses' blocks rather than reuse them.
 */

/** A file the platform stores (`/api/files/{id}`) or serves (`/media/…`): the approval binds it. */
export const isPlatformFile = (url: string) => /^\/(api\/files\/\d+|media\/)/.test(url);
/** An address outside the platform: what it shows can change without a new version. */
export const isExternalUrl = (url: string) => /^https:\/\//i.test(url.trim());

/** "Zunanji vir": the content hash binds the address only, not what the other site serves there. */
export const ExternalSource = ({ what }: { what?: string }) => {
  const { t } = useTranslation();
  return (
    <Alert color="orange" variant="light" p="xs" icon={<IconWorld size={16} aria-hidden />} data-testid="external-source">
      <Text size="sm">
        {t('approvals.preview.external')}
        {what ? ` (${what})` : ''}
      </Text>
    </Alert>
  );
};

/** A link a reviewer opens in a new tab (files are served to the approvers the course's scope names, decision 0063). */
export const OpenLink = ({ href, label, file = false }: { href: string; label: string; file?: boolean }) => (
  <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
    <Group gap={4} component="span" wrap="nowrap">
      {file ? <IconFileText size={16} aria-hidden /> : <IconExternalLink size={16} aria-hidden />}
      <span>{label}</span>
    </Group>
  </Anchor>
);

/** An article (or a video's text alternative) as participants read it: formatted, made safe again here. */
export const ArticleHtml = ({ html }: { html: string }) => (
  // biome-ignore lint/security/noDangerouslySetInnerHtml: rebuilt from the API's allow-list in the browser (safe-html.ts)
  <Typography data-testid="preview-article" dangerouslySetInnerHTML={{ __html: safeArticleHtml(html) }} />
);

/** A Vimeo video in Vimeo's player, and a link to it. */
export const VimeoPreview = ({ vimeoId, title }: { vimeoId: string; title: string }) => {
  const { t } = useTranslation();
  const id = encodeURIComponent(vimeoId);
  return (
    <Stack gap={6}>
      <AspectRatio ratio={16 / 9} maw={640}>
        <iframe
          src={`https://player.vimeo.com/video/${id}?dnt=1`}
          title={title}
          allow="fullscreen; picture-in-picture"
          allowFullScreen
          style={{ border: 0, borderRadius: 8 }}
        />
      </AspectRatio>
      <OpenLink href={`https://vimeo.com/${id}`} label={t('approvals.preview.openVimeo', { id: vimeoId })} />
      <ExternalSource what="Vimeo" />
    </Stack>
  );
};

/** A video file in the browser's player, and a link to it. */
export const FileVideoPreview = ({ url, title }: { url: string; title: string }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <video controls preload="metadata" src={url} aria-label={title} style={{ width: '100%', maxWidth: 640, borderRadius: 8, background: '#000' }}>
        <track kind="captions" />
      </video>
      <OpenLink href={url} label={t('approvals.preview.openVideo')} file />
      {isExternalUrl(url) ? <ExternalSource /> : null}
    </Stack>
  );
};

/** A Typeform form as participants fill it in, and a link to it. */
export const TypeformPreview = ({ typeformId, title }: { typeformId: string; title: string }) => {
  const { t } = useTranslation();
  const url = `https://form.typeform.com/to/${encodeURIComponent(typeformId)}`;
  return (
    <Stack gap={6}>
      <AspectRatio ratio={4 / 3} maw={640}>
        <iframe src={url} title={title} style={{ border: 0 }} />
      </AspectRatio>
      <OpenLink href={url} label={t('approvals.preview.openTypeform', { id: typeformId })} />
      <ExternalSource what="Typeform" />
    </Stack>
  );
};

/** An Interactr embed: only Interactr's own iframe, as the API keeps it. */
export const InteractrPreview = ({ html }: { html: string }) => {
  const safe = safeInteractrHtml(html);
  return (
    <Stack gap={6}>
      {safe ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: only an Interactr iframe, rebuilt in the browser (safe-html.ts)
        <AspectRatio ratio={16 / 9} maw={640} dangerouslySetInnerHTML={{ __html: safe }} data-testid="preview-interactr" />
      ) : null}
      <ExternalSource what="Interactr" />
    </Stack>
  );
};
