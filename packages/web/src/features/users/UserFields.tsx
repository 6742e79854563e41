import { ROLE_LABELS, ROLES, type Role } from '@gdb/shared/auth/roles';
import { assignableRoles, type ScopeActor } from '@gdb/shared/users/user-scope';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';
import { Col, Form, type FormInstance, Input, Row, Select, Switch } from 'antd';
import { fieldError, formFromUser, type UserFormValues, userNameFor } from './user-form.ts';

export interface UserFieldsProps {
  user: ManagedUser | null;
  actor: ScopeActor;
  form: FormInstance<UserFormValues>;
  /** The roles chosen now. */
  roles: readonly Role[];
  showOnlyDealersUpload: boolean;
  onRoles: (roles: Role[]) => void;
}

/** The user's own fields: names, email, service, roles and switches (docs/product.md §6.2). */
export function UserFields({ user, actor, form, roles, showOnlyDealersUpload, onRoles }: UserFieldsProps) {
  const giveable: readonly Role[] = assignableRoles(actor);
  const roleOptions = ROLES.filter((r) => giveable.includes(r) || roles.includes(r)).map((r) => ({
    value: r,
    label: ROLE_LABELS[r],
    disabled: !giveable.includes(r),
  }));

  const onNames = () => {
    const { firstName = '', lastName = '' } = form.getFieldsValue(['firstName', 'lastName']);
    form.setFieldValue('userName', userNameFor(user, firstName, lastName));
  };

  const rule = (field: keyof UserFormValues) => ({
    validator: async () => {
      const error = fieldError({ ...formFromUser(null), ...form.getFieldsValue(true) }, field);
      if (error) throw new Error(error);
    },
  });

  return (
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
      {showOnlyDealersUpload ? (
        <Col span={8}>
          <Form.Item name="onlyDealers" label="Only dealers upload" valuePropName="checked">
            <Switch aria-label="Only dealers upload" />
          </Form.Item>
        </Col>
      ) : null}
    </Row>
  );
}
