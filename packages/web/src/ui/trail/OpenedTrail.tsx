import { Breadcrumb, Button } from 'antd';
import type { OpenedCrumb } from './opened-trail.ts';
import './trail.css';

export interface OpenedTrailProps {
  /** The accessible name of the breadcrumb's navigation, e.g. 'Opened SDK functions'. */
  label: string;
  trail: readonly OpenedCrumb[];
  /** The version shown: plain text in the breadcrumb. */
  openId: string | undefined;
  onOpen: (id: string) => void;
}

/** The breadcrumb of the documents opened in an editor; the open one is plain text, the others reopen. */
export function OpenedTrail({ label, trail, openId, onOpen }: OpenedTrailProps) {
  if (trail.length === 0) return null;
  return (
    <nav aria-label={label}>
      <Breadcrumb
        items={trail.map((c) => ({
          key: c.familyId,
          title:
            c.id === openId ? (
              <span aria-current="page">{c.name}</span>
            ) : (
              <Button type="link" size="small" className="gdb-trail-crumb" onClick={() => onOpen(c.id)}>
                {c.name}
              </Button>
            ),
        }))}
      />
    </nav>
  );
}
