package io.objectcommit.checkpoint;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/**
 * The {@code AbstractFileSystem} binding of {@link CheckpointFileSystem}, for {@code FileContext} users such as
 * Structured Streaming's default checkpoint manager: {@code fs.AbstractFileSystem.ckpt.impl}.
 */
public class CheckpointFs extends DelegateToFileSystem {

  public CheckpointFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(uri, new CheckpointFileSystem(), conf, uri.getScheme(), false);
  }

  @Override
  public int getUriDefaultPort() {
    return -1;
  }
}
