import { ROLE_LABELS, ROLES, type Role } from '@gdb/shared/auth/roles';
import { TAG_SELECTOR } from '@gdb/shared/tags/tag-selector';
import type { Tag } from '@gdb/shared/tags/tags.schemas';
import { roleChangeEffects, USER_MESSAGES } from '@gdb/shared/users/user-rules';
import { assignableRoles, isSuperAdmin, type ScopeActor } from '@gdb/shared/users/user-scope';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Col, Form, Input, Row, Select, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { errorText, wasShown } from '../../ground/request/failure.ts';
import { ApiError } from '../../ground/request/request.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { Dialog } from '../../ui/dialog/Dialog.tsx';
import { BadgeChips } from '../../ui/tags/BadgeChip.tsx';
import { BadgesDialog, type BadgeValues } from '../../ui/tags/BadgesDialog.tsx';
import { deleteUsers, pipelinesForQuery, resetPassword, resetTfa, saveUser } from './api.ts';
import { PipelineTransfer } from './PipelineTransfer.tsx';
import {
  createdMessage,
  dialogRuleError,
  extrasFromUser,
  failureText,
  fieldError,
  formFromUser,
  saveBody,
  USER_CALL_FAILURES,
  type UserExtras,
  type UserFormValues,
  userNameFor,
} from './user-form.ts';

export interface UserDialogProps {
  /** The user to update; null creates one. */
  user: ManagedUser | null;
  actor: ScopeActor;
  tags: readonly Tag[];
  onClose: () => void;
  /** After a save or a delete: the list is stale. */
  onChanged: (user: ManagedUser | null) => void;
}

const FIELD_NAMES: readonly (keyof UserFormValues)[] = ['firstName', 'lastName', 'userName', 'email', 'roles'];

/** The user dialog (docs/product.md §6.2 to §6.5): create or update one user; mounted while it is open. */
export function UserDialog({ user, actor, tags, onClose, onChanged }: UserDialogProps) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const [form] = Form.useForm<UserFormValues>();
  const [extras, setExtras] = useState<UserExtras>(() => extrasFromUser(user));
  const [badgesOpen, setBadgesOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const roles = Form.useWatch('roles', form) ?? formFromUser(user).roles;
  const effects = roleChangeEffects(roles);
  const self = user?._id === actor._id;
  // A new user has no assignments yet: the caller's own answer lists every pipeline.
  const pipelines = useQuery({ ...pipelinesForQuery(user?._id ?? actor._id), enabled: effects.showPipelines });

  useEffect(() => {
    if (pipelines.error) {
      const text = failureText(pipelines.error, USER_CALL_FAILURES.pipelines);
      if (text) void message.error(text);
    }
  }, [pipelines.error, message]);

  const giveable: readonly Role[] = assignableRoles(actor);
  const roleOptions = ROLES.filter((r) => giveable.includes(r) || roles.includes(r)).map((r) => ({
    value: r,
    label: ROLE_LABELS[r],
    disabled: !giveable.includes(r),
  }));
  const groupTags = tags.filter((t) => t.type === 'group');
  const projectTags = tags.filter((t) => t.type === 'project');
  // Anyone but a super-admin gives and takes only its own admin badges.
  const offeredAdminTags = isSuperAdmin(actor.roles) ? groupTags : groupTags.filter((t) => actor.admin_tags.includes(t._id));

  const onNames = () => {
    const { firstName = '', lastName = '' } = form.getFieldsValue(['firstName', 'lastName']);
    form.setFieldValue('userName', userNameFor(user, firstName, lastName));
  };

  const onRoles = (next: Role[]) => {
    const e = roleChangeEffects(next);
    form.setFieldValue('onlyDealers', !e.unrestrictedUpload);
    if (e.clearPipelines) setExtras((x) => ({ ...x, pipelinePermissions: {} }));
  };

  const fail = (error: unknown, fallback: string) => {
    const text = failureText(error, fallback);
    if (text) void message.error(text);
  };

  const confirm = async () => {
    const values: UserFormValues = { ...formFromUser(null), ...form.getFieldsValue(true) };
    const rule = dialogRuleError(actor, values.roles, extras.admin_tags);
    if (rule) {
      void message.error(rule);
      return;
    }
    try {
      await form.validateFields();
    } catch {
      return;
    }
    setBusy('save');
    try {
      const saved = await saveUser(saveBody(user, values, extras));
      void message.success(user ? USER_MESSAGES.updated : createdMessage(saved.passwordMail));
      onChanged(saved);
      onClose();
    } catch (error) {
      if (wasShown(error)) return;
      void message.error(USER_MESSAGES.saveFailed(errorText(error)));
      if (error instanceof ApiError) {
        const onFields = error.issues.filter((i): i is typeof i & { path: keyof UserFormValues } =>
          (FIELD_NAMES as readonly string[]).includes(i.path),
        );
        form.setFields(onFields.map((i) => ({ name: i.path, errors: [i.message] })));
      }
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    if (!user || !(await askConfirmation(modal, USER_MESSAGES.confirmDeleteOne))) return;
    setBusy('delete');
    try {
      await deleteUsers([user._id]);
      void message.success(USER_MESSAGES.deletedOne);
      onChanged(null);
      onClose();
    } catch (error) {
      fail(error, USER_CALL_FAILURES.delete);
    } finally {
      setBusy(null);
    }
  };

  const call = async (what: 'resetPassword' | 'resetTfa') => {
    if (!user) return;
    setBusy(what);
    try {
      if (what === 'resetPassword') await resetPassword(user._id);
      else await resetTfa(user._id);
      void message.success(what === 'resetPassword' ? USER_MESSAGES.passwordReset : USER_MESSAGES.tfaReset);
      onChanged(user);
    } catch (error) {
      fail(error, USER_CALL_FAILURES[what]);
    } finally {
      setBusy(null);
    }
  };

  const saveBadges = (values: BadgeValues) =>
    setExtras((x) => ({ ...x, admin_tags: values.admin_tags ?? [], project_tags: values.project_tags ?? [] }));

  const closeBadges = () => {
    setBadgesOpen(false);
    void message.info(USER_MESSAGES.tagsDialogClosed);
  };

  const rule = (field: keyof UserFormValues) => ({
    validator: async () => {
      const error = fieldError({ ...formFromUser(null), ...form.getFieldsValue(true) }, field);
      if (error) throw new Error(error);
    },
  });

  const footer = [
    ...(user
      ? [
          <Button key="password" loading={busy === 'resetPassword'} onClick={() => void call('resetPassword')}>
            Reset password
          </Button>,
          <Button key="tfa" loading={busy === 'resetTfa'} disabled={self} onClick={() => void call('resetTfa')}>
            Reset TFA
          </Button>,
          <Button key="delete" danger loading={busy === 'delete'} disabled={self} onClick={() => void remove()}>
            Delete
          </Button>,
        ]
      : []),
    <Button key="tags" onClick={() => setBadgesOpen(true)}>
      Manage user tags
    </Button>,
    <Button key="cancel" onClick={onClose}>
      Cancel
    </Button>,
    <Button key="confirm" type="primary" loading={busy === 'save'} onClick={() => void confirm()}>
      Confirm
    </Button>,
  ];

  return (
    <Dialog open title={user ? 'Update user' : 'Create user'} width={880} onCancel={onClose} footer={footer}>
      <Form<UserFormValues> form={form} layout="vertical" initialValues={formFromUser(user)} requiredMark={false}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="firstName" label="First name" rules={[rule('firstName')]}>
              <Input onChange={onNames} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="lastName" label="Last name" rules={[rule('lastName')]}>
              <Input onChange={onNames} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="userName" label="User name" rules={[rule('userName')]}>
              <Input readOnly />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="email" label="Email" rules={[rule('email')]}>
              <Input type="email" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="service" label="Service">
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="roles" label="Roles" rules={[rule('roles')]}>
              <Select<Role[]> mode="multiple" aria-label="Roles" options={roleOptions} onChange={onRoles} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="isActive" label="Active" valuePropName="checked">
              <Switch aria-label="Active" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="isNoCode" label="No-Code Access" valuePropName="checked">
              <Switch aria-label="No-Code Access" />
            </Form.Item>
          </Col>
          {effects.showOnlyDealersUpload ? (
            <Col span={8}>
              <Form.Item name="onlyDealers" label="Only dealers upload" valuePropName="checked">
                <Switch aria-label="Only dealers upload" />
              </Form.Item>
            </Col>
          ) : null}
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label="Admin tags">
              <BadgeChips ids={extras.admin_tags} tags={tags} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="Project tags">
              <BadgeChips ids={extras.project_tags} tags={tags} />
            </Form.Item>
          </Col>
        </Row>
        {effects.showPipelines ? (
          <Form.Item label="Pipelines">
            <PipelineTransfer
              pipelines={pipelines.data?.availablePipelines ?? []}
              loading={pipelines.isLoading}
              value={extras.pipelinePermissions}
              onChange={(pipelinePermissions) => setExtras((x) => ({ ...x, pipelinePermissions }))}
            />
          </Form.Item>
        ) : null}
      </Form>
      <BadgesDialog
        open={badgesOpen}
        title="Manage user tags"
        maxHeight={TAG_SELECTOR.userScreenMaxHeight}
        sections={[
          { key: 'admin_tags', label: 'Admin tags', tags: offeredAdminTags, value: extras.admin_tags },
          { key: 'project_tags', label: 'Project tags', tags: projectTags, value: extras.project_tags },
        ]}
        onSave={saveBadges}
        onClose={closeBadges}
      />
    </Dialog>
  );
}
