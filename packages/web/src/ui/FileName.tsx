import { Typography } from 'antd';
import './file-name.css';

/** A file or user name that may be long: cut to one line with an ellipsis, the whole name in a tooltip. */
export function FileName({ name, strong = false }: { name: string; strong?: boolean }) {
  return (
    <Typography.Text className="gdb-file-name" strong={strong} ellipsis={{ tooltip: name }}>
      {name}
    </Typography.Text>
  );
}
