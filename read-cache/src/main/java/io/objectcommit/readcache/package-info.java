/**
 * The read cache (preview): blocks of S3 objects on local disk, shared by every JVM of a user on a host, never
 * stale. {@link io.objectcommit.readcache.ReadCache} (a cache directory and its statistics) opens
 * {@link io.objectcommit.readcache.CachingInputStream}s over one {@link io.objectcommit.readcache.ObjectIdentity}
 * each; settings in {@link io.objectcommit.readcache.ReadCacheConstants}, parsed once into
 * {@link io.objectcommit.readcache.ReadCacheOptions}. {@code impl} holds the block file format, the directory and
 * eviction. Every request goes through the store module's {@code ObjectStore}.
 */
package io.objectcommit.readcache;
