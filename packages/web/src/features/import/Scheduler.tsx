import { HOURLY_VALUES, MINUTELY_VALUES, monthlyDayWarning, TIME_STEPS, WEEKDAYS } from '@gdb/shared/imports/repeat-pattern';
import { Alert, DatePicker, Radio, Select, Space } from 'antd';
import dayjs from 'dayjs';
import { offersRepeat, REPEAT_KINDS, type ScheduleForm, type ScheduleKind } from './wizard-rules.ts';

export interface SchedulerProps {
  form: ScheduleForm;
  roles: readonly string[];
  disabled: boolean;
  onChange: (form: ScheduleForm) => void;
  /** A kind change goes through the page (switching an existing job to Now asks first). */
  onKind: (kind: ScheduleKind) => void;
}

const timeOptions = TIME_STEPS.map((t) => ({ value: t, label: t }));

interface FieldsProps {
  form: ScheduleForm;
  disabled: boolean;
  set: (patch: Partial<ScheduleForm>) => void;
}

/** The time of day, in five-minute steps. */
function TimeSelect({ form, disabled, set }: FieldsProps) {
  return (
    <Select
      aria-label="Time"
      placeholder="Time"
      style={{ width: 110 }}
      // 288 five-minute steps: typing '06:3' narrows them to 06:30 and 06:35.
      showSearch={{ optionFilterProp: 'label' }}
      disabled={disabled}
      value={form.time ?? undefined}
      onChange={(time: string) => set({ time })}
      options={timeOptions}
    />
  );
}

/** Repeat's fields: the kind, then what that kind needs (hours, minutes, weekday, day, time). */
function RepeatFields(props: FieldsProps) {
  const { form, disabled, set } = props;
  return (
    <Space wrap>
      <Select
        aria-label="Repeat kind"
        style={{ width: 170 }}
        disabled={disabled}
        value={form.repeat}
        onChange={(repeat) => set({ repeat })}
        options={REPEAT_KINDS.map((k) => ({ value: k.value, label: k.label }))}
      />
      {form.repeat === 'hourly' && (
        <Select
          aria-label="Hours"
          placeholder="Hours"
          style={{ width: 100 }}
          disabled={disabled}
          value={form.hours ?? undefined}
          onChange={(hours: number) => set({ hours })}
          options={HOURLY_VALUES.map((h) => ({ value: h, label: `${h} h` }))}
        />
      )}
      {form.repeat === 'minutely' && (
        <Select
          aria-label="Minutes"
          placeholder="Minutes"
          style={{ width: 100 }}
          disabled={disabled}
          value={form.minutes ?? undefined}
          onChange={(minutes: number) => set({ minutes })}
          options={MINUTELY_VALUES.map((m) => ({ value: m, label: `${m} min` }))}
        />
      )}
      {form.repeat === 'weekly' && (
        <Select
          aria-label="Weekday"
          placeholder="Weekday"
          style={{ width: 100 }}
          disabled={disabled}
          value={form.weekday ?? undefined}
          onChange={(weekday) => set({ weekday })}
          options={WEEKDAYS.map((w) => ({ value: w, label: w }))}
        />
      )}
      {form.repeat === 'monthly' && (
        <Select
          aria-label="Day"
          placeholder="Day"
          style={{ width: 90 }}
          disabled={disabled}
          value={form.day ?? undefined}
          onChange={(day: number) => set({ day })}
          options={Array.from({ length: 31 }, (_, i) => ({ value: i + 1, label: String(i + 1) }))}
        />
      )}
      {(form.repeat === 'daily' || form.repeat === 'weekly' || form.repeat === 'monthly') && <TimeSelect {...props} />}
    </Space>
  );
}

/** The repeat-pattern scheduler: Now, Later (date and time) or Repeat (docs/product.md §10.3). */
export function Scheduler({ form, roles, disabled, onChange, onKind }: SchedulerProps) {
  const set = (patch: Partial<ScheduleForm>) => onChange({ ...form, ...patch });
  const warning = form.kind === 'repeat' && form.repeat === 'monthly' && form.day ? monthlyDayWarning(form.day) : null;
  return (
    <Space orientation="vertical">
      <Radio.Group
        aria-label="When"
        disabled={disabled}
        value={form.kind}
        onChange={(e) => onKind(e.target.value)}
        options={[
          { value: 'immediate', label: 'Now' },
          { value: 'scheduled', label: 'Later' },
          ...(offersRepeat(roles) ? [{ value: 'repeat', label: 'Repeat' }] : []),
        ]}
      />
      {form.kind === 'scheduled' && (
        <Space>
          <DatePicker
            aria-label="Date"
            disabled={disabled}
            value={form.date ? dayjs(form.date) : null}
            disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
            onChange={(d) => set({ date: d ? d.format('YYYY-MM-DD') : null })}
          />
          <TimeSelect form={form} disabled={disabled} set={set} />
        </Space>
      )}
      {form.kind === 'repeat' && <RepeatFields form={form} disabled={disabled} set={set} />}
      {warning && <Alert type="warning" showIcon title={warning} />}
    </Space>
  );
}
