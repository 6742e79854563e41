import { USER_MESSAGES } from '@gdb/shared/users/user-rules';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useState } from 'react';
import { reloadUserInfo } from '../../ground/session/session.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { deleteUsers, toggleUsers, userKeys } from './api.ts';
import { failureText, USER_CALL_FAILURES } from './user-form.ts';

type Bulk = 'delete' | 'activate' | 'de-activate';

/** The Users screen's actions on the list: the selection, one user's Active switch, and delete or (de-)activate the selected. */
export function useUserActions(meId: string | undefined) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const [toggling, setToggling] = useState<string | null>(null);

  /** Reloads the list, and the signed-in user's own information when they changed themselves. */
  const refresh = async (changed?: ManagedUser | null) => {
    await queryClient.invalidateQueries({ queryKey: userKeys.all });
    if (changed && changed._id === meId) await reloadUserInfo(queryClient);
  };

  const fail = (error: unknown, fallback: string) => {
    const text = failureText(error, fallback);
    if (text) void message.error(text);
  };

  const toggleOne = async (user: ManagedUser, enabled: boolean) => {
    setToggling(user._id);
    try {
      await toggleUsers([user._id], enabled);
      void message.success(enabled ? USER_MESSAGES.activated : USER_MESSAGES.deactivated);
      await refresh();
    } catch (error) {
      fail(error, USER_CALL_FAILURES.toggle);
    } finally {
      setToggling(null);
    }
  };

  const bulk = async (action: Bulk) => {
    const ids = selected;
    if (ids.length > 1 && !(await askConfirmation(modal, USER_MESSAGES.confirmBulk(action)))) {
      setSelected([]);
      return;
    }
    try {
      if (action === 'delete') {
        await deleteUsers(ids);
        void message.success(ids.length > 1 ? USER_MESSAGES.deletedMany : USER_MESSAGES.deletedOne);
      } else {
        await toggleUsers(ids, action === 'activate');
        void message.success(action === 'activate' ? USER_MESSAGES.activated : USER_MESSAGES.deactivated);
      }
      setSelected([]);
      await refresh();
    } catch (error) {
      fail(error, action === 'delete' ? USER_CALL_FAILURES.delete : USER_CALL_FAILURES.toggle);
    }
  };

  return { selected, setSelected, toggling, toggleOne, bulk, refresh };
}
