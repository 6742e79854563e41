import type { listAllFiltersSchema } from '@gdb/shared/imports/import.schemas';
import { localeLabel } from '@gdb/shared/reference/reference.schemas';
import { Select, Space, Switch, Typography } from 'antd';
import type { z } from 'zod';
import { type LogbookFilters as Filters, toggleSuccess } from './logbook-rules.ts';

type Lists = z.infer<typeof listAllFiltersSchema>;

const options = (list: readonly { _id: string; name: string }[]) => list.map((x) => ({ value: x._id, label: x.name }));

/** Brand, locale, product line, datakind, user, the Time switch and the two Success switches (docs/product.md §12.3). */
export function LogbookFilters({
  lists,
  value,
  onChange,
}: {
  lists: Lists | undefined;
  value: Filters;
  onChange: (filters: Filters) => void;
}) {
  const select = (
    key: 'brand' | 'locale' | 'productLine' | 'datakind' | 'user',
    label: string,
    opts: { value: string; label: string }[],
  ) => (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      aria-label={label}
      placeholder={label}
      style={{ width: 170 }}
      value={value[key] ?? undefined}
      onChange={(v: string | undefined) => onChange({ ...value, [key]: v ?? null })}
      options={opts}
    />
  );
  return (
    <Space wrap style={{ marginBottom: 12 }}>
      {select('brand', 'Brand', options(lists?.brands ?? []))}
      {select(
        'locale',
        'Locale',
        (lists?.locales ?? []).map((l) => ({ value: l._id, label: localeLabel(l) })),
      )}
      {select('productLine', 'Product line', options(lists?.productLines ?? []))}
      {select('datakind', 'Datakind', options(lists?.datakinds ?? []))}
      {select(
        'user',
        'User',
        (lists?.users ?? []).map((u) => ({ value: u._id, label: u.firstName })),
      )}
      <Space>
        <Typography.Text>Time</Typography.Text>
        <Switch
          aria-label="Time"
          checked={value.future}
          checkedChildren="Future only"
          unCheckedChildren="Past only"
          onChange={(future) => onChange({ ...value, future })}
        />
      </Space>
      <Space>
        <Typography.Text>Success</Typography.Text>
        <Switch
          aria-label="Success True: succeeded"
          checked={value.success.true}
          checkedChildren="True: succeeded"
          unCheckedChildren="True: succeeded"
          onChange={(on) => onChange({ ...value, success: toggleSuccess(value.success, 'true', on) })}
        />
        <Switch
          aria-label="Success False: failed, running or pending"
          checked={value.success.false}
          checkedChildren="False: failed, running or pending"
          unCheckedChildren="False: failed, running or pending"
          onChange={(on) => onChange({ ...value, success: toggleSuccess(value.success, 'false', on) })}
        />
      </Space>
    </Space>
  );
}
