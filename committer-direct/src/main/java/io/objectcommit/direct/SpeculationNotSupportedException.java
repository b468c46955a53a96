package io.objectcommit.direct;

import java.io.IOException;

/**
 * Job setup found speculative execution enabled while the direct committer is configured to refuse it
 * ({@link DirectCommitterConstants#ON_SPECULATION} {@code = fail}, the default). The message names the setting
 * and the alternatives.
 */
public class SpeculationNotSupportedException extends IOException {

  private static final long serialVersionUID = 1L;

  public SpeculationNotSupportedException(String message) {
    super(message);
  }
}
