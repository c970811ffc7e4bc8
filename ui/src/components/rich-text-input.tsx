import { ActionIcon, Group, Input, Paper, Tooltip } from '@mantine/core';
import { IconBold, IconH3, IconItalic, IconLink, IconList, IconListNumbers } from '@tabler/icons-react';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

type Command = { key: string; icon: typeof IconBold; run: () => void };

/**
 * A small rich-text field for articles and news: bold, italic, a heading, lists and links, written
 * as HTML. The browser's own editing commands do the work; the server sanitises whatever arrives
 * (application/courses/sanitize-block.ts), so this field is a convenience, never the guard.
 */
export const RichTextInput = (props: { label: string; value: string; onChange: (html: string) => void; error?: string | undefined; required?: boolean }) => {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const labelId = useId();
  const errorId = useId();
  // The DOM holds the text while typing; only a value from outside (a loaded record) is written back.
  useEffect(() => {
    const element = ref.current;
    if (element && element.innerHTML !== props.value) element.innerHTML = props.value;
  }, [props.value]);

  const exec = (command: string, argument?: string) => {
    ref.current?.focus();
    document.execCommand(command, false, argument);
    props.onChange(ref.current?.innerHTML ?? '');
  };
  const commands: Command[] = [
    { key: 'bold', icon: IconBold, run: () => exec('bold') },
    { key: 'italic', icon: IconItalic, run: () => exec('italic') },
    { key: 'heading', icon: IconH3, run: () => exec('formatBlock', 'h3') },
    { key: 'bullets', icon: IconList, run: () => exec('insertUnorderedList') },
    { key: 'numbers', icon: IconListNumbers, run: () => exec('insertOrderedList') },
    {
      key: 'link',
      icon: IconLink,
      run: () => {
        const url = window.prompt(t('richText.linkPrompt'), 'https://');
        if (url && /^https:\/\/\S+$/.test(url)) exec('createLink', url);
      },
    },
  ];
  return (
    <Input.Wrapper label={props.label} withAsterisk={props.required} error={props.error} labelProps={{ id: labelId }} errorProps={{ id: errorId }}>
      <Paper withBorder radius="sm" mt={4} style={props.error ? { borderColor: 'var(--mantine-color-error)' } : undefined}>
        <Group gap={2} p={4} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }} role="toolbar" aria-label={t('richText.toolbar')}>
          {commands.map((command) => (
            <Tooltip key={command.key} label={t(`richText.${command.key}`)} withArrow>
              <ActionIcon
                variant="subtle"
                color="gray.8"
                aria-label={t(`richText.${command.key}`)}
                // Keep the selection in the text while the button is pressed.
                onMouseDown={(event) => event.preventDefault()}
                onClick={command.run}
              >
                <command.icon size={16} />
              </ActionIcon>
            </Tooltip>
          ))}
        </Group>
        {/* biome-ignore lint/a11y/useSemanticElements: a contenteditable region is the rich-text editor; a textarea cannot hold formatting. */}
        <div
          ref={ref}
          role="textbox"
          tabIndex={0}
          aria-multiline="true"
          aria-labelledby={labelId}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
          contentEditable
          suppressContentEditableWarning
          onInput={(event) => props.onChange(event.currentTarget.innerHTML)}
          style={{ minHeight: 160, padding: '8px 12px', outline: 'none' }}
        />
      </Paper>
    </Input.Wrapper>
  );
};
