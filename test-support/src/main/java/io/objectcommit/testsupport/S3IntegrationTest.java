package io.objectcommit.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/** Marks an integration test class that talks to S3 through {@link S3Extension}. Name such classes {@code *IT}. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(S3Extension.class)
@Tag("s3")
public @interface S3IntegrationTest {
}
