import { TAG_SELECTOR } from '@gdb/shared/tags/tag-selector';
import { type Tag, type TagType, tagSaveBodySchema } from '@gdb/shared/tags/tags.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, type FormInstance, Input, Select, Space, Switch, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useDialogCalls } from '../dialog/calls.ts';
import { Dialog } from '../dialog/Dialog.tsx';
import { deleteTags, reloadTags, saveTag, tagKeys, tagListQuery } from './api.ts';
import { BadgeChip } from './BadgeChip.tsx';

const BADGE_TYPE_LABELS: Record<TagType, string> = { group: 'Group (admin)', project: 'Project' };

const BADGE_LIST_MESSAGES = {
  saved: 'The badge has been saved.',
  deleted: 'The selected badges have been deleted.',
  reloaded: 'The badge list has been reloaded.',
  confirmDelete: 'Do you want to delete the selected badges?',
} as const;

interface BadgeForm {
  name: string;
  type: TagType;
  color: string;
  isHidden: boolean;
  isMetadata: boolean;
  metadata: string;
}

const EMPTY: BadgeForm = { name: '', type: 'project', color: '#1677ff', isHidden: false, isMetadata: false, metadata: '' };

const rule = (schema: z.ZodType) => ({
  validator: async (_: unknown, value: unknown) => {
    const result = schema.safeParse(value ?? '');
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid value');
  },
});

const byName = (a: Tag, b: Tag) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** The list's columns: the name (a button that edits the badge), type, hidden and metadata. */
function badgeColumns(edit: (tag: Tag) => void): TableColumnsType<Tag> {
  return [
    {
      title: 'Name',
      key: 'name',
      // The keyboard's way to edit a badge: the row takes a click, this button Enter or Space.
      render: (_, t) => (
        <Button
          type="text"
          size="small"
          aria-label={`Edit badge ${t.name}`}
          onClick={(e) => {
            e.stopPropagation();
            edit(t);
          }}
        >
          <BadgeChip name={t.name} color={t.color} />
        </Button>
      ),
    },
    { title: 'Type', key: 'type', render: (_, t) => BADGE_TYPE_LABELS[t.type] },
    { title: 'Hidden', key: 'hidden', render: (_, t) => (t.isHidden ? 'Yes' : 'No') },
    { title: 'Metadata', key: 'metadata', render: (_, t) => (t.isMetadata ? (t.metadata ?? 'Yes') : '') },
  ];
}

interface BadgeEditFormProps {
  form: FormInstance<BadgeForm>;
  /** The badge being edited; null creates one. */
  editing: Tag | null;
  busy: boolean;
  onSave: (values: BadgeForm) => void;
}

/** The form under the list: a new badge, or the one clicked (its type then fixed). */
function BadgeEditForm({ form, editing, busy, onSave }: BadgeEditFormProps) {
  const type = Form.useWatch('type', form);
  return (
    <Form<BadgeForm> form={form} layout="inline" className="gdb-badge-form" initialValues={EMPTY} onFinish={onSave}>
      <Form.Item name="name" label="Name" rules={[rule(tagSaveBodySchema.shape.name)]}>
        <Input aria-label="Badge name" />
      </Form.Item>
      <Form.Item name="type" label="Type">
        <Select
          aria-label="Badge type"
          disabled={editing !== null}
          style={{ width: 150 }}
          options={(['group', 'project'] as const).map((t) => ({ value: t, label: BADGE_TYPE_LABELS[t] }))}
        />
      </Form.Item>
      {type === 'project' ? (
        <Form.Item name="color" label="Colour">
          <Input type="color" aria-label="Badge colour" style={{ width: 60 }} />
        </Form.Item>
      ) : null}
      <Form.Item name="isHidden" label="Hidden" valuePropName="checked">
        <Switch aria-label="Hidden" />
      </Form.Item>
      <Form.Item name="isMetadata" label="Metadata badge" valuePropName="checked">
        <Switch aria-label="Metadata badge" />
      </Form.Item>
      <Form.Item name="metadata" label="Metadata" rules={[rule(tagSaveBodySchema.shape.metadata)]}>
        <Input aria-label="Metadata" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {editing ? 'Update' : 'Create'}
      </Button>
    </Form>
  );
}

/** The global badge list (super-admin only): every badge, hidden ones included, to create, edit or delete. */
export function GlobalBadgeListDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const list = useQuery({ ...tagListQuery(), enabled: open });
  const [form] = Form.useForm<BadgeForm>();
  const [editing, setEditing] = useState<Tag | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const fail = (error: unknown) => showFailure(error, message.error);
  const refresh = () => queryClient.invalidateQueries({ queryKey: tagKeys.all });

  const edit = (tag: Tag | null) => {
    setEditing(tag);
    form.setFieldsValue(
      tag
        ? {
            name: tag.name,
            type: tag.type,
            color: tag.color ?? EMPTY.color,
            isHidden: tag.isHidden,
            isMetadata: tag.isMetadata,
            metadata: tag.metadata ?? '',
          }
        : EMPTY,
    );
  };

  const save = async (values: BadgeForm) => {
    setBusy(true);
    try {
      await saveTag({
        ...(editing ? { _id: editing._id } : {}),
        name: values.name.trim(),
        type: values.type,
        color: values.type === 'project' ? values.color : null,
        isHidden: values.isHidden,
        isMetadata: values.isMetadata,
        metadata: values.metadata.trim() ? values.metadata : null,
      });
      void message.success(BADGE_LIST_MESSAGES.saved);
      edit(null);
      await refresh();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!(await askConfirmation(modal, BADGE_LIST_MESSAGES.confirmDelete))) return;
    try {
      await deleteTags(selected);
      setSelected([]);
      if (editing && selected.includes(editing._id)) edit(null);
      void message.success(BADGE_LIST_MESSAGES.deleted);
      await refresh();
    } catch (error) {
      fail(error);
    }
  };

  const reload = async () => {
    try {
      queryClient.setQueryData(tagKeys.list, await reloadTags());
      void message.success(BADGE_LIST_MESSAGES.reloaded);
    } catch (error) {
      fail(error);
    }
  };

  const tags = [...(list.data ?? [])].sort(byName);

  return (
    <Dialog
      open={open}
      title={TAG_SELECTOR.globalListTitle}
      width="70%"
      destroyOnHidden
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <Space className="gdb-badge-list-actions">
        <Button onClick={() => edit(null)}>New badge</Button>
        <Button danger disabled={selected.length === 0} onClick={() => void remove()}>
          Delete
        </Button>
        <Button onClick={() => void reload()}>Reload</Button>
      </Space>
      <Table<Tag>
        rowKey="_id"
        size="small"
        loading={list.isLoading}
        dataSource={tags}
        pagination={false}
        scroll={{ y: TAG_SELECTOR.boxHeight }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        onRow={(tag) => ({ onClick: () => edit(tag) })}
        columns={badgeColumns(edit)}
      />
      <BadgeEditForm form={form} editing={editing} busy={busy} onSave={(v) => void save(v)} />
    </Dialog>
  );
}
