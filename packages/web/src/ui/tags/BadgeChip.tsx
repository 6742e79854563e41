import { Tag } from 'antd';

/** One badge as a chip; project badges wear their colour. */
export function BadgeChip({ name, color }: { name: string; color: string | null }) {
  return (
    <Tag className="gdb-badge-chip" color={color ?? undefined}>
      {name}
    </Tag>
  );
}

/** The named badges of a list of ids, as chips; unknown ids are left out. */
export function BadgeChips({
  ids,
  tags,
  empty = 'No tags',
}: {
  ids: readonly string[];
  tags: readonly { _id: string; name: string; color?: string | null }[];
  empty?: string;
}) {
  const byId = new Map(tags.map((t) => [t._id, t]));
  const shown = ids.flatMap((id) => {
    const t = byId.get(id);
    return t ? [t] : [];
  });
  if (shown.length === 0) return <span className="gdb-badge-chips-empty">{empty}</span>;
  return (
    <span className="gdb-badge-chips">
      {shown.map((t) => (
        <BadgeChip key={t._id} name={t.name} color={t.color ?? null} />
      ))}
    </span>
  );
}
