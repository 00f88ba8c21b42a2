package org.chartstream.store.documentdb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Driver settings for a {@link DocumentDbSettings}: the connection string plus the TLS policy. */
final class DocumentDbClientSettings {

  private static final Logger LOG = LoggerFactory.getLogger(DocumentDbClientSettings.class);

  private DocumentDbClientSettings() {}

  static MongoClientSettings of(DocumentDbSettings settings) {
    ConnectionString cs = new ConnectionString(settings.connectionString());
    MongoClientSettings.Builder builder = MongoClientSettings.builder()
        .applyConnectionString(cs)
        .applyToClusterSettings(c -> c.serverSelectionTimeout(10, TimeUnit.SECONDS));
    DocumentDbSettings.Tls tls = settings.tls();
    boolean tlsOn = tls.enabled() || tls.caFile() != null || tls.allowInvalidCertificates()
        || Boolean.TRUE.equals(cs.getSslEnabled());
    if (!tlsOn) {
      return builder.build();
    }
    if (Boolean.TRUE.equals(cs.getSslInvalidHostnameAllowed()) && !tls.allowInvalidCertificates()) {
      LOG.warn("the DocumentDB connection string for {} switches host name validation off", cs.getHosts());
    }
    SSLContext context;
    if (tls.allowInvalidCertificates()) {
      LOG.warn("TLS certificate validation is OFF for DocumentDB at {}: any server can impersonate it;"
          + " use a CA file instead outside development", cs.getHosts());
      context = trustingAnyCertificate();
    } else if (tls.caFile() != null) {
      context = trustingCertificatesIn(tls.caFile());
    } else {
      context = null;
    }
    builder.applyToSslSettings(ssl -> {
      ssl.enabled(true);
      if (context != null) {
        ssl.context(context);
      }
      if (tls.allowInvalidCertificates()) {
        ssl.invalidHostNameAllowed(true);
      }
    });
    return builder.build();
  }

  /** A TLS context that trusts exactly the CA certificates in a PEM file. */
  static SSLContext trustingCertificatesIn(Path caFile) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trustManagersFor(caFile), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot create a TLS context", e);
    }
  }

  /** Trust managers whose only anchors are the CA certificates in a PEM file. */
  static TrustManager[] trustManagersFor(Path caFile) {
    try (InputStream in = Files.newInputStream(caFile)) {
      Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
          .generateCertificates(in);
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException("no certificate in CA file " + caFile);
      }
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      int i = 0;
      for (Certificate c : certificates) {
        trusted.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trusted);
      return factory.getTrustManagers();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CA file " + caFile, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("CA file " + caFile + " holds no usable X.509 certificate", e);
    }
  }

  private static SSLContext trustingAnyCertificate() {
    TrustManager trustAll = new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // the explicit opt-out: nothing is checked
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {
        // the explicit opt-out: nothing is checked
      }

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trustAll}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot create a TLS context", e);
    }
  }
}
