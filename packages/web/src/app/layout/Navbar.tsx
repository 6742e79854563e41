import { DownOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import type { SessionUser } from '@gdb/shared/auth/session.schemas';
import { loginPath } from '@gdb/shared/routes/web-routes';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, Layout } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { showFailure } from '../../ground/request/failure.ts';
import { clearTokens } from '../../ground/request/token-store.ts';
import { logoutCall } from '../../ground/session/session.ts';
import { AppBreadcrumb } from './AppBreadcrumb.tsx';

/** The top bar: sidebar toggle, breadcrumb, and the user's menu (Home, Log Out). */
export function Navbar({
  user,
  sidebarOpened,
  onToggleSidebar,
}: {
  user: SessionUser;
  sidebarOpened: boolean;
  onToggleSidebar: () => void;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { message } = App.useApp();

  const signOut = async () => {
    const back = loginPath(`${location.pathname}${location.search}`);
    try {
      await logoutCall();
    } catch (error) {
      showFailure(error, message.error);
      return;
    }
    clearTokens();
    await navigate(back, { replace: true });
    queryClient.clear();
  };

  return (
    <Layout.Header className="gdb-navbar">
      <Button
        type="text"
        className="gdb-hamburger"
        aria-label={sidebarOpened ? 'Close the sidebar' : 'Open the sidebar'}
        icon={sidebarOpened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={onToggleSidebar}
      />
      <AppBreadcrumb />
      <div className="gdb-navbar-right">
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'home', label: 'Home' },
              { key: 'logout', label: 'Log Out' },
            ],
            onClick: ({ key }) => {
              if (key === 'home') void navigate('/');
              else void signOut();
            },
          }}
        >
          <Button type="text" className="gdb-user-menu" icon={<UserOutlined />}>
            <span className="gdb-user-name" title={`${user.firstName} ${user.lastName} (${user.role})`}>
              {user.firstName} {user.lastName} ({user.role})
            </span>
            <DownOutlined />
          </Button>
        </Dropdown>
      </div>
    </Layout.Header>
  );
}
