import { useEffect, useState } from 'react';
import { api } from '../api/client.ts';
import type { TaskImageInfo } from '../api/types.ts';

/**
 * One of a task's images as a thumbnail, read from its own URL (`GET /api/tasks/{id}/images/{index}`) with
 * the API key when there is one (an `<img src>` could not send it), linked to the full image. An SVG is
 * named, not drawn: the service sends it only as a download.
 */
export function TaskImageThumb({
  taskId,
  index,
  image,
}: {
  taskId: string;
  index: number;
  image: TaskImageInfo;
}) {
  const name = image.filename ?? image.media_type;
  const [url, setUrl] = useState<string | null>(null);
  const drawable = !image.media_type.includes('svg');
  useEffect(() => {
    if (!drawable) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    api.tasks
      .image(taskId, index, { signal: controller.signal })
      .then((bytes) => {
        objectUrl = URL.createObjectURL(bytes);
        setUrl(objectUrl);
      })
      // Not readable (gone, refused, aborted): the name stays in its place.
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [taskId, index, drawable]);
  if (!url) return <span className="task-image-name">{name}</span>;
  return (
    <a
      className="task-image"
      href={url}
      target="_blank"
      rel="noreferrer"
      title={`${name} (${image.bytes} bytes)`}
    >
      <img src={url} alt={name} />
    </a>
  );
}
