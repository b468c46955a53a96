package io.objectcommit.store.impl.v2.sdkstandin;

import java.util.ArrayList;
import java.util.List;

/** Package-private, like the SDK's builder implementations. */
final class DefaultChecksumOptionsBuilder implements ChecksumOptionsBuilder {

  private final List<String> calls = new ArrayList<>();

  @Override
  public ChecksumOptionsBuilder requestChecksumCalculation(Calculation c) {
    calls.add("request " + c);
    return this;
  }

  @Override
  public ChecksumOptionsBuilder responseChecksumValidation(Calculation c) {
    calls.add("response " + c);
    return this;
  }

  @Override
  public List<String> calls() {
    return calls;
  }
}
