package io.objectcommit.checkpoint.contract;

import io.objectcommit.testsupport.HadoopContractSuite;
import io.objectcommit.testsupport.TestTags;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.experimental.categories.Category;
import org.junit.jupiter.api.Tag;

/** Hadoop's GetFileStatus contract suite against the checkpoint FileSystem's local backend. */
@Category(HadoopContractSuite.class)
@Tag(TestTags.HADOOP_CONTRACT)
public class CkptLocalContractGetFileStatusTest extends AbstractContractGetFileStatusTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CkptLocalContract(conf);
  }
}
