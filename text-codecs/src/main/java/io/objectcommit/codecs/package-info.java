/**
 * Hadoop compression codecs for text that Spark splits: {@link io.objectcommit.codecs.BgzfCodec} (BGZF, blocked
 * gzip), {@link io.objectcommit.codecs.SeekableZstdCodec} (seekable zstd) and their settings
 * ({@link io.objectcommit.codecs.CodecConstants}); {@code impl} holds the formats, the split readers and the
 * writers. Only Hadoop's codec API (and zstd-jni, which Spark ships) is used: no store access.
 */
package io.objectcommit.codecs;
