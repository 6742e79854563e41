import { FileTextOutlined, FolderOutlined } from '@ant-design/icons';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { Spin, Tag, Tree, type TreeDataNode, Typography } from 'antd';
import { seesVersions } from '../../ui/pipelines/pipeline-filter.ts';

const ROOT_TITLE = 'Pipelines';
const ROOT_KEY = 'root';
const PIPELINE_KEY = 'pipeline:';

export interface PipelineTreeProps {
  /** Already filtered and ordered. */
  pipelines: readonly PipelineView[];
  /** Folders made on this page, shown under the root before the pipelines. */
  folders: readonly string[];
  loading: boolean;
  roles: readonly string[];
  selectedId: string | null;
  onSelect: (pipeline: PipelineView) => void;
}

function PipelineTitle({ pipeline, versions }: { pipeline: PipelineView; versions: boolean }) {
  return (
    <span>
      {pipeline.name}
      {pipeline.isMaster && (
        <Tag color="purple" style={{ marginInlineStart: 8 }}>
          master
        </Tag>
      )}
      {versions && <Tag style={{ marginInlineStart: 8 }}>v{pipeline.version}</Tag>}
    </span>
  );
}

/** The pipeline folder tree: one root holding the folders, then the pipelines; only pipelines are selectable. */
export function PipelineTree({ pipelines, folders, loading, roles, selectedId, onSelect }: PipelineTreeProps) {
  const versions = seesVersions(roles);
  const treeData: TreeDataNode[] = [
    {
      key: ROOT_KEY,
      title: ROOT_TITLE,
      icon: <FolderOutlined />,
      selectable: false,
      children: [
        ...folders.map((name, i) => ({
          key: `folder:${i}`,
          title: name,
          icon: <FolderOutlined />,
          selectable: false,
          isLeaf: true,
        })),
        ...pipelines.map((p) => ({
          key: `${PIPELINE_KEY}${p._id}`,
          title: <PipelineTitle pipeline={p} versions={versions} />,
          icon: <FileTextOutlined />,
          isLeaf: true,
        })),
      ],
    },
  ];
  const select = (key: string) => {
    const pipeline = pipelines.find((p) => `${PIPELINE_KEY}${p._id}` === key);
    if (pipeline) onSelect(pipeline);
  };
  return (
    <Spin spinning={loading}>
      <Tree
        aria-label="Pipeline folders"
        className="gdb-testing-tree"
        showIcon
        blockNode
        defaultExpandedKeys={[ROOT_KEY]}
        selectedKeys={selectedId ? [`${PIPELINE_KEY}${selectedId}`] : []}
        onSelect={(_keys, info) => select(String(info.node.key))}
        treeData={treeData}
      />
      {!loading && pipelines.length === 0 && (
        <Typography.Text type="secondary">No pipeline matches these filters.</Typography.Text>
      )}
    </Spin>
  );
}
