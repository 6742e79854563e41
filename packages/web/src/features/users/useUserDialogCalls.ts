import { USER_MESSAGES } from '@gdb/shared/users/user-rules';
import type { ScopeActor } from '@gdb/shared/users/user-scope';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';
import { App, type FormInstance } from 'antd';
import { useState } from 'react';
import { errorText, wasShown } from '../../ground/request/failure.ts';
import { ApiError } from '../../ground/request/request.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { deleteUsers, resetPassword, resetTfa, saveUser } from './api.ts';
import {
  createdMessage,
  dialogRuleError,
  failureText,
  formFromUser,
  saveBody,
  USER_CALL_FAILURES,
  type UserExtras,
  type UserFormValues,
} from './user-form.ts';

const FIELD_NAMES: readonly (keyof UserFormValues)[] = ['firstName', 'lastName', 'userName', 'email', 'roles'];

export interface UserDialogCallsOptions {
  /** The user to update; null creates one. */
  user: ManagedUser | null;
  actor: ScopeActor;
  form: FormInstance<UserFormValues>;
  extras: UserExtras;
  onChanged: (user: ManagedUser | null) => void;
  onClose: () => void;
}

/** The user dialog's calls (confirm, delete, reset password, reset TFA) and which one is running. */
export function useUserDialogCalls({ user, actor, form, extras, onChanged, onClose }: UserDialogCallsOptions) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const [busy, setBusy] = useState<string | null>(null);

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

  return { busy, confirm, remove, call };
}
