package io.objectcommit.architecture.planted.cli;

import io.objectcommit.architecture.planted.staging.StagingThing;

/** Allowed: the command uses the components. */
public class Command {
  public StagingThing staging() {
    return null;
  }
}
