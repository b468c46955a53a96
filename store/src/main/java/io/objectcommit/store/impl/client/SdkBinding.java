package io.objectcommit.store.impl.client;

import io.objectcommit.store.audit.RequestAttribution;
import io.objectcommit.store.impl.S3Calls;

/**
 * One AWS SDK behind {@link S3Calls}: builds its client from {@link S3ClientSettings} and binds it to a bucket.
 * Implementations live in {@code impl.v1} and {@code impl.v2} and are loaded by name ({@link SdkBindings}), so
 * that the SDK not in use is never loaded.
 */
public interface SdkBinding {

  /** {@code v1} or {@code v2}. */
  String name();

  /**
   * A new SDK client; the caller shuts it down with {@link #shutdown}. Builds only, connects to nothing.
   *
   * @throws IllegalArgumentException when the settings cannot make a client (credential providers, region)
   */
  Object newClient(S3ClientSettings settings);

  /**
   * The requests of one bucket through {@code client} (from {@link #newClient} with {@code settings}), each carrying
   * the attribution header {@code attribution} builds for it (none when it is off).
   */
  S3Calls calls(Object client, S3ClientSettings settings, String bucket, EncryptionSettings encryption,
      RequestAttribution attribution);

  /** Releases a client from {@link #newClient}. */
  void shutdown(Object client);
}
