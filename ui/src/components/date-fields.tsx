import '@mantine/dates/styles.css';
import 'dayjs/locale/sl';
import { ActionIcon, Popover, TextInput, type TextInputProps } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTimeInput, formatDayInput, ljubljanaDay, ljubljanaWall, parseDateTimeInput, parseDayInput } from '../lib/ljubljana-time.ts';

// The calendar's days read out in Slovenian: "3. december 2027".
const dayName = new Intl.DateTimeFormat('sl-SI', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });
const dayLabel = (day: string) => dayName.format(new Date(`${day.slice(0, 10)}T12:00:00Z`));

type FieldProps = Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange' | 'type' | 'placeholder' | 'rightSection'>;

type Kind = {
  format: (value: string | null | undefined) => string;
  parse: (text: string) => string | null;
  same: (a: string | null, b: string | null) => boolean;
  /** The value's calendar day (for the picker). */
  dayOf: (value: string) => string;
  /** The text after picking a day in the calendar, keeping what else was typed. */
  withDay: (day: string, value: string | null) => string;
  /** i18n keys. */
  placeholder: string;
  invalid: string;
};

/**
 * A text field in Slovenian order (and 24-hour time) with a calendar beside it, never the browser's
 * own date input (which follows the browser's language and zone). What it reports changes while
 * one types: the value once the text is a whole, real date, null while it is empty or unfinished.
 */
const WallField = ({
  kind,
  value,
  onChange,
  error,
  onBlur,
  ...rest
}: FieldProps & { kind: Kind; value: string | null | undefined; onChange: (value: string | null) => void }) => {
  const { t } = useTranslation();
  const [text, setText] = useState(() => kind.format(value));
  const [left, setLeft] = useState(false);
  const [picking, setPicking] = useState(false);
  const current = value || null;
  // A value set from outside (a reset, a reload, the server's answer) shows; one's own typing stays as typed.
  useEffect(() => {
    setText((typed) => (kind.same(kind.parse(typed), current) ? typed : kind.format(current)));
  }, [current, kind]);
  const change = (next: string) => {
    setText(next);
    const parsed = next.trim() === '' ? null : kind.parse(next);
    if (!kind.same(parsed, current)) onChange(parsed);
  };
  const unreadable = left && text.trim() !== '' && kind.parse(text) === null;
  return (
    <TextInput
      {...rest}
      value={text}
      autoComplete="off"
      placeholder={t(kind.placeholder)}
      rightSectionPointerEvents="all"
      onChange={(event) => {
        setLeft(false);
        change(event.currentTarget.value);
      }}
      onBlur={(event) => {
        setLeft(true);
        const parsed = kind.parse(text);
        if (parsed) setText(kind.format(parsed));
        onBlur?.(event);
      }}
      error={unreadable ? t(kind.invalid) : error}
      rightSection={
        <Popover opened={picking} onChange={setPicking} position="bottom-end" shadow="md" trapFocus returnFocus>
          <Popover.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={t('dates.pick')} onClick={() => setPicking((o) => !o)} disabled={rest.disabled}>
              <IconCalendar size={18} aria-hidden />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown>
            <DatePicker
              locale="sl"
              firstDayOfWeek={1}
              getDayAriaLabel={dayLabel}
              value={current ? kind.dayOf(current) : null}
              defaultDate={current ? kind.dayOf(current) : undefined}
              onChange={(day) => {
                if (day) change(kind.withDay(day, current));
                setPicking(false);
              }}
            />
          </Popover.Dropdown>
        </Popover>
      }
    />
  );
};

const sameInstant = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Date.parse(a) === Date.parse(b));

const DATE_TIME: Kind = {
  format: formatDateTimeInput,
  parse: parseDateTimeInput,
  same: sameInstant,
  dayOf: ljubljanaDay,
  withDay: (day, value) => {
    const w = value ? ljubljanaWall(new Date(value)) : { hour: 0, minute: 0 };
    return `${formatDayInput(day)} ${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
  },
  placeholder: 'dates.dateTimePlaceholder',
  invalid: 'dates.invalidDateTime',
};

const DAY: Kind = {
  format: formatDayInput,
  parse: parseDayInput,
  same: (a, b) => a === b,
  dayOf: (day) => day,
  withDay: (day) => formatDayInput(day),
  placeholder: 'dates.dayPlaceholder',
  invalid: 'dates.invalidDay',
};

/** A moment typed as `23. 11. 2026 10:00`, Ljubljana time in any browser; its value is a UTC ISO instant (`…Z`). */
export const DateTimeField = (props: FieldProps & { value: string | null | undefined; onChange: (iso: string | null) => void }) => (
  <WallField kind={DATE_TIME} {...props} />
);

/** A calendar day typed as `23. 11. 2026`; its value is `YYYY-MM-DD`. */
export const DateField = (props: FieldProps & { value: string | null | undefined; onChange: (day: string | null) => void }) => (
  <WallField kind={DAY} {...props} />
);
