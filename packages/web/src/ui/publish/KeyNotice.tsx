import { Alert, Typography } from 'antd';
import { PUBLISH_TEXTS } from './publish-texts.ts';

/** A key answered by a publish, and whose endpoint it opens. */
export interface ShownKey {
  /** The exposed route the key opens. */
  route: string;
  apiKey: string;
}

/** The keys a publish answered, each with a copy button, and the warning that they are shown this once. */
export function KeyNotice({ keys }: { keys: readonly ShownKey[] }) {
  if (keys.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="gdb-publish-keys"
      title={keys.length === 1 ? PUBLISH_TEXTS.keyTitle : PUBLISH_TEXTS.keysTitle}
      description={
        <>
          <Typography.Paragraph>{PUBLISH_TEXTS.keyOnce}</Typography.Paragraph>
          {keys.map((k) => (
            <div key={k.route} className="gdb-publish-key">
              <Typography.Text>{k.route}</Typography.Text>{' '}
              <Typography.Text
                code
                copyable={{ tooltips: [PUBLISH_TEXTS.copy, PUBLISH_TEXTS.copied] }}
                data-testid="endpoint-key"
              >
                {k.apiKey}
              </Typography.Text>
            </div>
          ))}
        </>
      }
    />
  );
}
