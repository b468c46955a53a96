package io.objectcommit.testsupport;

/**
 * The JUnit 4 category of our subclasses of Hadoop's FileSystem contract suites (JUnit 4 up to Hadoop 3.4): the
 * JUnit Vintage engine reports a category as the tag named by its class, {@link TestTags#HADOOP_CONTRACT}.
 */
public interface HadoopContractSuite {
}
