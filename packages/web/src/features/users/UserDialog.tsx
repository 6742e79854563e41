import type { Role } from '@gdb/shared/auth/roles';
import { TAG_SELECTOR } from '@gdb/shared/tags/tag-selector';
import type { Tag } from '@gdb/shared/tags/tags.schemas';
import { roleChangeEffects, USER_MESSAGES } from '@gdb/shared/users/user-rules';
import { isSuperAdmin, type ScopeActor } from '@gdb/shared/users/user-scope';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Col, Form, Row } from 'antd';
import { useEffect, useState } from 'react';
import { Dialog } from '../../ui/dialog/Dialog.tsx';
import { BadgeChips } from '../../ui/tags/BadgeChip.tsx';
import { BadgesDialog, type BadgeValues } from '../../ui/tags/BadgesDialog.tsx';
import { pipelinesForQuery } from './api.ts';
import { PipelineTransfer } from './PipelineTransfer.tsx';
import { UserFields } from './UserFields.tsx';
import {
  extrasFromUser,
  failureText,
  formFromUser,
  USER_CALL_FAILURES,
  type UserExtras,
  type UserFormValues,
} from './user-form.ts';
import { useUserDialogCalls } from './useUserDialogCalls.ts';

export interface UserDialogProps {
  /** The user to update; null creates one. */
  user: ManagedUser | null;
  actor: ScopeActor;
  tags: readonly Tag[];
  onClose: () => void;
  /** After a save or a delete: the list is stale. */
  onChanged: (user: ManagedUser | null) => void;
}

/** The user dialog (docs/product.md §6.2 to §6.5): create or update one user; mounted while it is open. */
export function UserDialog({ user, actor, tags, onClose, onChanged }: UserDialogProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<UserFormValues>();
  const [extras, setExtras] = useState<UserExtras>(() => extrasFromUser(user));
  const [badgesOpen, setBadgesOpen] = useState(false);
  const { busy, confirm, remove, call } = useUserDialogCalls({ user, actor, form, extras, onChanged, onClose });
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

  const groupTags = tags.filter((t) => t.type === 'group');
  const projectTags = tags.filter((t) => t.type === 'project');
  // Anyone but a super-admin gives and takes only its own admin badges.
  const offeredAdminTags = isSuperAdmin(actor.roles) ? groupTags : groupTags.filter((t) => actor.admin_tags.includes(t._id));

  const onRoles = (next: Role[]) => {
    const e = roleChangeEffects(next);
    form.setFieldValue('onlyDealers', !e.unrestrictedUpload);
    if (e.clearPipelines) setExtras((x) => ({ ...x, pipelinePermissions: {} }));
  };

  const saveBadges = (values: BadgeValues) =>
    setExtras((x) => ({ ...x, admin_tags: values.admin_tags ?? [], project_tags: values.project_tags ?? [] }));

  const closeBadges = () => {
    setBadgesOpen(false);
    void message.info(USER_MESSAGES.tagsDialogClosed);
  };

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
        <UserFields
          user={user}
          actor={actor}
          form={form}
          roles={roles}
          showOnlyDealersUpload={effects.showOnlyDealersUpload}
          onRoles={onRoles}
        />
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
