package io.objectcommit.checkpoint.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Create contract suite against the checkpoint FileSystem's local backend. */
public class CkptLocalContractCreateTest extends CkptContractCreateSemantics {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CkptLocalContract(conf);
  }
}
