/**
 * Hadoop compression codecs for text that Spark splits: {@link io.objectcommit.codecs.BgzfCodec} (BGZF, blocked
 * gzip) and its settings ({@link io.objectcommit.codecs.CodecConstants}); {@code impl} holds the block format, the
 * split reader and the writer. Only Hadoop's codec API is used: no store access.
 */
package io.objectcommit.codecs;
