import {
  AppstoreOutlined,
  CloudUploadOutlined,
  DownloadOutlined,
  ExperimentOutlined,
  FileSearchOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { type MenuEntry, menuFor, WEB_ROUTES } from '@gdb/shared/routes/web-routes';
import { Menu, type MenuProps } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { isBuilt } from '../pages.ts';

const ICONS: Record<string, ReactNode> = {
  '/import': <CloudUploadOutlined />,
  '/export': <DownloadOutlined />,
  '/consult': <FileSearchOutlined />,
  '/manage': <SettingOutlined />,
  '/testing': <ExperimentOutlined />,
};

type Item = Required<MenuProps>['items'][number];

function iconFor(path: string): ReactNode {
  const top = `/${path.split('/')[1] ?? ''}`;
  return ICONS[top] ?? <AppstoreOutlined />;
}

function toItem(entry: MenuEntry, top: boolean, onNavigate: (() => void) | undefined): Item {
  const icon = top ? iconFor(entry.path) : undefined;
  if (entry.children) {
    return { key: entry.path, icon, label: entry.title, children: entry.children.map((c) => toItem(c, false, onNavigate)) };
  }
  return {
    key: entry.path,
    icon,
    label: (
      <Link to={entry.path} onClick={onNavigate}>
        {entry.title}
      </Link>
    ),
  };
}

/** Parent keys of the submenu holding `pathname`. */
function parentsOf(entries: readonly MenuEntry[], pathname: string): string[] {
  for (const e of entries) {
    if (e.children?.some((c) => pathname === c.path || pathname.startsWith(`${c.path}/`))) return [e.path];
  }
  return [];
}

/** The sidebar menu for the user's roles (docs/product.md §3.1). */
export function Sidebar({
  roles,
  collapsed,
  onNavigate,
}: {
  roles: readonly string[];
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const { pathname } = useLocation();
  const entries = menuFor(roles, WEB_ROUTES, isBuilt);
  const [openKeys, setOpenKeys] = useState<string[]>(() => parentsOf(entries, pathname));
  const parentKey = parentsOf(entries, pathname)[0];
  useEffect(() => {
    if (parentKey) setOpenKeys((keys) => (keys.includes(parentKey) ? keys : [...keys, parentKey]));
  }, [parentKey]);
  return (
    <Menu
      className="gdb-menu"
      mode="inline"
      theme="dark"
      selectedKeys={[pathname]}
      openKeys={collapsed ? [] : openKeys}
      onOpenChange={(keys) => {
        if (!collapsed) setOpenKeys(keys);
      }}
      items={entries.map((e) => toItem(e, true, onNavigate))}
    />
  );
}
