package org.chartstream.store.documentdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoClientSettings;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS policy: validation on by default, a site CA file, and the explicit opt-out. */
class DocumentDbClientSettingsTest {

  @TempDir
  Path tempDir;

  private static DocumentDbSettings settings(String connectionString, DocumentDbSettings.Tls tls) {
    return DocumentDbSettings.defaults(connectionString, "db", 384).withTls(tls);
  }

  private Path caFile() throws Exception {
    Path pem = tempDir.resolve("ca.pem");
    try (InputStream in = getClass().getResourceAsStream("test-ca.pem")) {
      Files.write(pem, in.readAllBytes());
    }
    return pem;
  }

  private X509Certificate testCa() throws Exception {
    try (InputStream in = getClass().getResourceAsStream("test-ca.pem")) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  @Test
  void plainConnectionStringMeansNoTls() {
    MongoClientSettings s = DocumentDbClientSettings.of(settings("mongodb://localhost:10260",
        DocumentDbSettings.Tls.FROM_CONNECTION_STRING));
    assertThat(s.getSslSettings().isEnabled()).isFalse();
  }

  @Test
  void tlsFromTheConnectionStringValidatesCertificatesAndHostNamesWithTheJvmTrustStore() {
    MongoClientSettings s = DocumentDbClientSettings.of(settings("mongodb://localhost:10260/?tls=true",
        DocumentDbSettings.Tls.FROM_CONNECTION_STRING));
    assertThat(s.getSslSettings().isEnabled()).isTrue();
    assertThat(s.getSslSettings().isInvalidHostNameAllowed()).isFalse();
    assertThat(s.getSslSettings().getContext()).as("the JVM default: validating").isNull();
  }

  @Test
  void aCaFileBecomesTheOnlyTrustAnchorAndHostNamesAreStillChecked() throws Exception {
    MongoClientSettings s = DocumentDbClientSettings.of(settings("mongodb://db.example:10260",
        DocumentDbSettings.Tls.withCaFile(caFile())));
    assertThat(s.getSslSettings().isEnabled()).isTrue();
    assertThat(s.getSslSettings().isInvalidHostNameAllowed()).isFalse();
    assertThat(s.getSslSettings().getContext()).isNotNull();

    X509TrustManager trust = (X509TrustManager) DocumentDbClientSettings.trustManagersFor(caFile())[0];
    assertThat(trust.getAcceptedIssuers()).containsExactly(testCa());
    trust.checkServerTrusted(new X509Certificate[] {testCa()}, "RSA");
    X509Certificate otherAuthority = anyJvmTrustedCertificate();
    assertThatThrownBy(() -> trust.checkServerTrusted(new X509Certificate[] {otherAuthority}, "RSA"))
        .as("a certificate the JVM trusts but the CA file does not").isInstanceOf(CertificateException.class);
  }

  @Test
  void aCaFileWithoutCertificatesIsRejected() throws Exception {
    Path empty = Files.writeString(tempDir.resolve("empty.pem"), "no certificate here\n");
    assertThatThrownBy(() -> DocumentDbClientSettings.of(settings("mongodb://db.example:10260",
        DocumentDbSettings.Tls.withCaFile(empty)))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty.pem");
  }

  @Test
  void theExplicitOptOutSwitchesValidationOff() {
    MongoClientSettings s = DocumentDbClientSettings.of(settings("mongodb://localhost:10260",
        DocumentDbSettings.Tls.insecureAllowInvalidCertificates()));
    assertThat(s.getSslSettings().isEnabled()).isTrue();
    assertThat(s.getSslSettings().isInvalidHostNameAllowed()).isTrue();
    assertThat(s.getSslSettings().getContext()).isNotNull();
  }

  @Test
  void settingsNeverPrintTheConnectionString() {
    DocumentDbSettings s = DocumentDbSettings.defaults("mongodb://user:secret@db.example:10260", "db", 384);
    assertThat(s.toString()).doesNotContain("secret").doesNotContain("user");
  }

  private static X509Certificate anyJvmTrustedCertificate() throws Exception {
    TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    f.init((KeyStore) null);
    X509Certificate[] issuers = ((X509TrustManager) f.getTrustManagers()[0]).getAcceptedIssuers();
    assertThat(issuers).as("the JVM trust store").isNotEmpty();
    return issuers[0];
  }
}
