package io.objectcommit.checkpoint.contract;

import io.objectcommit.testsupport.HadoopContractSuite;
import io.objectcommit.testsupport.TestTags;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.experimental.categories.Category;
import org.junit.jupiter.api.Tag;

/** Hadoop's Open contract suite against the checkpoint FileSystem's s3 backend. */
@Category(HadoopContractSuite.class)
@Tag(TestTags.HADOOP_CONTRACT)
public class CkptS3ContractOpenIT extends AbstractContractOpenTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CkptS3Contract(conf);
  }
}
