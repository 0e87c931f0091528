import { namespacedUri, upstreamUri, withNamespacedUris } from './resource-namespace';

describe('resource URI namespacing', () => {
  it.each([
    'demo://resource/static/document/a.md',
    'file:///tmp/x y.txt',
    'https://example.com/a/b?c=d#e',
    'demo://resource/dynamic/text/{resourceId}',
  ])('round-trips %s', (uri) => {
    const namespaced = namespacedUri('my-server_1', uri);
    expect(namespaced).toBe(`mcp://my-server_1/${uri}`);
    expect(upstreamUri(namespaced)).toEqual({ server: 'my-server_1', uri });
  });

  it.each(['a2a://task/1', 'mcp://', 'mcp://server', 'mcp:///x'])('names no upstream for %s', (uri) => {
    expect(upstreamUri(uri)).toBeUndefined();
  });

  it('namespaces the URIs a content block carries, and leaves others as they are', () => {
    expect(withNamespacedUris('fs', { type: 'resource_link', uri: 'file:///a', name: 'a' })).toEqual({
      type: 'resource_link',
      uri: 'mcp://fs/file:///a',
      name: 'a',
    });
    expect(withNamespacedUris('fs', { type: 'resource', resource: { uri: 'file:///a', text: 'x' } })).toEqual({
      type: 'resource',
      resource: { uri: 'mcp://fs/file:///a', text: 'x' },
    });
    expect(withNamespacedUris('fs', { type: 'text', text: 'file:///a' })).toEqual({ type: 'text', text: 'file:///a' });
  });
});
