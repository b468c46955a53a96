package io.objectcommit.checkpoint.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Create contract suite against the checkpoint FileSystem's s3 backend. */
public class CkptS3ContractCreateIT extends CkptContractCreateSemantics {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CkptS3Contract(conf);
  }
}
