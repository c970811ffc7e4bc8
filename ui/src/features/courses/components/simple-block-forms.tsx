import { NumberInput, Textarea, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { articleBlockRule, interactrBlockRule, pointsBlockRule, textFileBlockRule, typeformBlockRule } from '../../../../../domain/courses/course.rules.ts';
import { RichTextInput } from '../../../components/rich-text-input.tsx';
import { type BlockTarget, useBlockForm } from '../hooks/use-block-form.ts';
import { BlockFormFrame, BlockNameField } from './block-form-frame.tsx';
import { DocumentField } from './video-block-form.tsx';

type Points = z.input<typeof pointsBlockRule>;
type Article = z.input<typeof articleBlockRule>;
type TextFile = z.input<typeof textFileBlockRule>;
type Typeform = z.input<typeof typeformBlockRule>;
type Interactr = z.input<typeof interactrBlockRule>;

export const EMPTY_POINTS: Points = { kind: 'points', name: '', points: 1 };
export const EMPTY_ARTICLE: Article = { kind: 'article', name: '', html: '' };
export const EMPTY_TEXT_FILE: TextFile = { kind: 'textFile', name: '', fileUrl: '' };
export const EMPTY_TYPEFORM: Typeform = { kind: 'typeform', name: '', typeformId: '' };
export const EMPTY_INTERACTR: Interactr = { kind: 'interactr', name: '', html: '' };

type FormProps<T> = { title: string; initial: T; target: BlockTarget; backTo: string; actions?: ReactNode };

/** Credit points (spec §3, §9: 0,0 to 10,0 with one decimal), awarded when the block is reached. */
export const PointsBlockForm = (props: FormProps<Points>) => {
  const { t } = useTranslation();
  const { form, submit, submitting } = useBlockForm(pointsBlockRule, props.initial, props.target);
  return (
    <BlockFormFrame {...props} submit={submit} submitting={submitting}>
      <BlockNameField value={form.values.name} onChange={(x) => form.set('name', x)} error={form.errors.name} />
      <NumberInput
        label={t('adminCourses.form.creditPoints')}
        withAsterisk
        decimalScale={1}
        decimalSeparator=","
        clampBehavior="none"
        step={0.5}
        value={form.values.points}
        onChange={(x) => form.set('points', typeof x === 'number' ? x : Number.NaN)}
        error={form.errors.points}
      />
    </BlockFormFrame>
  );
};

/** An article: rich text, sanitised by the server when saved. */
export const ArticleBlockForm = (props: FormProps<Article>) => {
  const { t } = useTranslation();
  const { form, submit, submitting } = useBlockForm(articleBlockRule, props.initial, props.target);
  return (
    <BlockFormFrame {...props} submit={submit} submitting={submitting}>
      <BlockNameField value={form.values.name} onChange={(x) => form.set('name', x)} error={form.errors.name} />
      <RichTextInput
        label={t('blocks.article.content')}
        required
        value={form.values.html}
        onChange={(html) => form.set('html', html)}
        error={form.errors.html}
      />
    </BlockFormFrame>
  );
};

/** A text file (PDF) participants open from the course. */
export const TextFileBlockForm = (props: FormProps<TextFile>) => {
  const { form, submit, submitting } = useBlockForm(textFileBlockRule, props.initial, props.target);
  return (
    <BlockFormFrame {...props} submit={submit} submitting={submitting}>
      <BlockNameField value={form.values.name} onChange={(x) => form.set('name', x)} error={form.errors.name} />
      <DocumentField value={form.values.fileUrl} onChange={(url) => form.set('fileUrl', url)} error={form.errors.fileUrl} />
    </BlockFormFrame>
  );
};

/** A Typeform survey embedded by its form id. */
export const TypeformBlockForm = (props: FormProps<Typeform>) => {
  const { t } = useTranslation();
  const { form, submit, submitting } = useBlockForm(typeformBlockRule, props.initial, props.target);
  return (
    <BlockFormFrame {...props} submit={submit} submitting={submitting}>
      <BlockNameField value={form.values.name} onChange={(x) => form.set('name', x)} error={form.errors.name} />
      <TextInput
        label={t('blocks.typeform.id')}
        description={t('blocks.typeform.idHint')}
        withAsterisk
        value={form.values.typeformId}
        onChange={(x) => form.set('typeformId', x.currentTarget.value)}
        error={form.errors.typeformId}
      />
    </BlockFormFrame>
  );
};

/** An interactive Interactr video: its embed code; the server keeps only the Interactr iframe (feature "Interactr on"). */
export const InteractrBlockForm = (props: FormProps<Interactr>) => {
  const { t } = useTranslation();
  const { form, submit, submitting } = useBlockForm(interactrBlockRule, props.initial, props.target);
  return (
    <BlockFormFrame {...props} submit={submit} submitting={submitting}>
      <BlockNameField value={form.values.name} onChange={(x) => form.set('name', x)} error={form.errors.name} />
      <Textarea
        label={t('blocks.interactr.embed')}
        description={t('blocks.interactr.embedHint')}
        withAsterisk
        autosize
        minRows={3}
        value={form.values.html}
        onChange={(x) => form.set('html', x.currentTarget.value)}
        error={form.errors.html}
      />
    </BlockFormFrame>
  );
};
