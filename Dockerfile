# The chartstream app, packaged from the jar the Maven build made (mvn -B -DskipTests install):
# app/target/chartstream-app.jar carries its classpath (lib/*) in its manifest. The default embedding model ships
# inside the models jar; site models (file:models/...) are mounted at /opt/chartstream/models.
FROM eclipse-temurin:25-jre
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /var/lib/chartstream chartstream \
    && mkdir -p /var/lib/chartstream && chown chartstream /var/lib/chartstream
WORKDIR /opt/chartstream
COPY app/target/lib/ /opt/chartstream/lib/
COPY app/target/chartstream-app.jar /opt/chartstream/chartstream-app.jar
COPY data/aci-bench/ /opt/chartstream/data/aci-bench/
USER chartstream
VOLUME /var/lib/chartstream
EXPOSE 9464
ENV CHARTSTREAM_DATA_DIR=/var/lib/chartstream
# ONNX Runtime's telemetry client starts unless this is in the environment (docs/OPERATIONS.md)
ENV ORT_DISABLE_TELEMETRY=1
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "--add-modules", "jdk.incubator.vector", "-Dchartstream.home=/opt/chartstream", "-jar", "/opt/chartstream/chartstream-app.jar"]
CMD ["run", "--role", "all"]
