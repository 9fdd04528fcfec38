package dev.aerun.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

class ManifestsTest {
  static final String IMAGE = "europe-west1-docker.pkg.dev/p/r/shop@sha256:" + "ab".repeat(32);

  static AppEngineWebXml descriptor(String body) throws Exception {
    String xml =
        "<appengine-web-app xmlns=\"http://appengine.google.com/ns/1.0\">"
            + body
            + "</appengine-web-app>";
    return AppEngineWebXmlParser.parse(
        new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "appengine-web.xml");
  }

  static DeploymentPlan plan(String body) throws Exception {
    return DeploymentPlan.from(descriptor(body), "shop.war");
  }

  @SuppressWarnings("unchecked")
  static <T> T at(Object root, Object... path) {
    Object node = root;
    for (Object step : path) {
      node =
          step instanceof Integer i
              ? ((List<Object>) node).get(i)
              : ((Map<String, Object>) node).get(step);
    }
    return (T) node;
  }

  static Map<String, Object> parse(String yaml) {
    return new Yaml().load(yaml);
  }

  static List<Object> parseAll(String yaml) {
    List<Object> docs = new ArrayList<>();
    new Yaml().loadAll(yaml).forEach(docs::add);
    return docs;
  }

  @Test
  void automaticScaling_cloudRun() throws Exception {
    DeploymentPlan plan =
        plan(
            "<runtime>java21</runtime><service>Shop</service><instance-class>F2</instance-class>"
                + "<automatic-scaling><max-concurrent-requests>40</max-concurrent-requests>"
                + "<min-instances>2</min-instances><max-instances>7</max-instances>"
                + "<target-cpu-utilization>0.75</target-cpu-utilization></automatic-scaling>"
                + "<env-variables><env-var name=\"COLOR\" value=\"blue\"/></env-variables>");
    Map<String, Object> run = parse(Manifests.cloudRun(plan, IMAGE));
    assertEquals("serving.knative.dev/v1", run.get("apiVersion"));
    assertEquals("Service", run.get("kind"));
    assertEquals("shop", at(run, "metadata", "name"));
    Map<String, Object> annotations = at(run, "spec", "template", "metadata", "annotations");
    assertEquals("2", annotations.get("autoscaling.knative.dev/minScale"));
    assertEquals("7", annotations.get("autoscaling.knative.dev/maxScale"));
    assertEquals(40, (int) at(run, "spec", "template", "spec", "containerConcurrency"));
    Map<String, Object> c = at(run, "spec", "template", "spec", "containers", 0);
    assertEquals(IMAGE, c.get("image"));
    assertEquals(8080, (int) at(c, "ports", 0, "containerPort"));
    assertEquals("768Mi", at(c, "resources", "limits", "memory"));
    assertEquals("1", at(c, "resources", "limits", "cpu"));
    assertEquals(List.of(Map.of("name", "COLOR", "value", "blue")), c.get("env"));
    assertEquals("/_ah/warmup", at(c, "startupProbe", "httpGet", "path"));
    assertEquals("/_ah/health", at(c, "livenessProbe", "httpGet", "path"));
    assertEquals("java21", plan.javaRuntime());
  }

  @Test
  void automaticScaling_kubernetes() throws Exception {
    DeploymentPlan plan =
        plan(
            "<runtime>java17</runtime><automatic-scaling><min-instances>3</min-instances>"
                + "<max-instances>9</max-instances>"
                + "<target-cpu-utilization>0.5</target-cpu-utilization></automatic-scaling>");
    List<Object> docs = parseAll(Manifests.kubernetes(plan, IMAGE));
    assertEquals(3, docs.size());
    Object deployment = docs.get(0);
    assertEquals("Deployment", at(deployment, "kind"));
    assertEquals("shop", at(deployment, "metadata", "name"));
    assertEquals(3, (int) at(deployment, "spec", "replicas"));
    Map<String, Object> pod = at(deployment, "spec", "template", "spec");
    assertEquals(20, (int) pod.get("terminationGracePeriodSeconds"));
    assertEquals(true, at(pod, "securityContext", "runAsNonRoot"));
    Map<String, Object> c = at(pod, "containers", 0);
    assertEquals(IMAGE, c.get("image"));
    assertEquals("/_ah/health", at(c, "readinessProbe", "httpGet", "path"));
    assertEquals("/_ah/health", at(c, "livenessProbe", "httpGet", "path"));
    assertEquals("/_ah/warmup", at(c, "startupProbe", "httpGet", "path"));
    assertEquals(5, (int) at(c, "lifecycle", "preStop", "sleep", "seconds"));
    assertEquals("384Mi", at(c, "resources", "requests", "memory"));
    Object service = docs.get(1);
    assertEquals("Service", at(service, "kind"));
    assertEquals(8080, (int) at(service, "spec", "ports", 0, "targetPort"));
    Object hpa = docs.get(2);
    assertEquals("HorizontalPodAutoscaler", at(hpa, "kind"));
    assertEquals(3, (int) at(hpa, "spec", "minReplicas"));
    assertEquals(9, (int) at(hpa, "spec", "maxReplicas"));
    assertEquals("shop", at(hpa, "spec", "scaleTargetRef", "name"));
    assertEquals(
        50, (int) at(hpa, "spec", "metrics", 0, "resource", "target", "averageUtilization"));
  }

  @Test
  void automaticScaling_defaults() throws Exception {
    DeploymentPlan plan = plan("<runtime>java17</runtime>");
    Map<String, Object> run = parse(Manifests.cloudRun(plan, IMAGE));
    assertEquals(
        "0",
        at(run, "spec", "template", "metadata", "annotations", "autoscaling.knative.dev/minScale"));
    assertNull(
        at(run, "spec", "template", "metadata", "annotations", "autoscaling.knative.dev/maxScale"));
    assertEquals(10, (int) at(run, "spec", "template", "spec", "containerConcurrency"));
    assertEquals(600, (int) at(run, "spec", "template", "spec", "timeoutSeconds"));
    assertEquals(
        "384Mi",
        at(run, "spec", "template", "spec", "containers", 0, "resources", "limits", "memory"));
    List<Object> k8s = parseAll(Manifests.kubernetes(plan, IMAGE));
    assertEquals(1, (int) at(k8s.get(2), "spec", "minReplicas"));
    assertEquals(
        60, (int) at(k8s.get(2), "spec", "metrics", 0, "resource", "target", "averageUtilization"));
  }

  @Test
  void basicScaling_allTargets() throws Exception {
    DeploymentPlan plan =
        plan(
            "<runtime>java25</runtime><instance-class>B4</instance-class><basic-scaling>"
                + "<max-instances>5</max-instances><idle-timeout>10m</idle-timeout>"
                + "</basic-scaling>");
    Map<String, Object> run = parse(Manifests.cloudRun(plan, IMAGE));
    Map<String, Object> annotations = at(run, "spec", "template", "metadata", "annotations");
    assertEquals("0", annotations.get("autoscaling.knative.dev/minScale"));
    assertEquals("5", annotations.get("autoscaling.knative.dev/maxScale"));
    assertEquals(
        "1536Mi",
        at(run, "spec", "template", "spec", "containers", 0, "resources", "limits", "memory"));
    assertEquals(
        "2", at(run, "spec", "template", "spec", "containers", 0, "resources", "limits", "cpu"));
    assertEquals(3600, (int) at(run, "spec", "template", "spec", "timeoutSeconds"));
    List<Object> k8s = parseAll(Manifests.kubernetes(plan, IMAGE));
    assertEquals(1, (int) at(k8s.get(0), "spec", "replicas"));
    assertEquals(5, (int) at(k8s.get(2), "spec", "maxReplicas"));
    Map<String, Object> app = parse(Manifests.appYaml(plan));
    assertEquals(5, (int) at(app, "automatic_scaling", "max_num_instances"));
    assertEquals(2, (int) at(app, "resources", "cpu"));
    assertTrue(
        plan.notes().stream().anyMatch(n -> n.contains("idle-timeout")), plan.notes()::toString);
  }

  @Test
  void manualScaling_allTargets() throws Exception {
    DeploymentPlan plan =
        plan("<runtime>java17</runtime><manual-scaling><instances>4</instances></manual-scaling>");
    Map<String, Object> annotations =
        at(parse(Manifests.cloudRun(plan, IMAGE)), "spec", "template", "metadata", "annotations");
    assertEquals("4", annotations.get("autoscaling.knative.dev/minScale"));
    assertEquals("4", annotations.get("autoscaling.knative.dev/maxScale"));
    List<Object> k8s = parseAll(Manifests.kubernetes(plan, IMAGE));
    assertEquals(2, k8s.size(), "no autoscaler for manual scaling");
    assertEquals(4, (int) at(k8s.get(0), "spec", "replicas"));
    assertEquals(
        "768Mi",
        at(
            k8s.get(0),
            "spec",
            "template",
            "spec",
            "containers",
            0,
            "resources",
            "limits",
            "memory"));
    Map<String, Object> app = parse(Manifests.appYaml(plan));
    assertEquals(4, (int) at(app, "manual_scaling", "instances"));
    assertNull(app.get("automatic_scaling"));
  }

  @Test
  void appYaml_isACustomFlexibleRuntime() throws Exception {
    DeploymentPlan plan =
        plan(
            "<runtime>java17</runtime><service>api</service><automatic-scaling>"
                + "<max-instances>3</max-instances></automatic-scaling>"
                + "<env-variables><env-var name=\"A\" value=\"1\"/></env-variables>");
    Map<String, Object> app = parse(Manifests.appYaml(plan));
    assertEquals("custom", app.get("runtime"));
    assertEquals("flex", app.get("env"));
    assertEquals("api", app.get("service"));
    assertEquals(Map.of("A", "1"), app.get("env_variables"));
    assertEquals("/_ah/health", at(app, "liveness_check", "path"));
    assertEquals(3, (int) at(app, "automatic_scaling", "max_num_instances"));
    String dockerfile = Manifests.dockerfile(plan, "aerun/java17@sha256:" + "cd".repeat(32));
    assertTrue(dockerfile.contains("ARG RUNTIME_IMAGE=aerun/java17@sha256:cdcd"), dockerfile);
    assertTrue(
        dockerfile.contains("FROM ${RUNTIME_IMAGE}\nCOPY app/ /app/\nENV A=\"1\"\n"), dockerfile);
  }

  @Test
  void noManifestTrustsThePeerOrClaimsAppEngine() throws Exception {
    DeploymentPlan plan =
        plan(
            "<runtime>java17</runtime><env-variables><env-var name=\"X\" value=\"y\"/>"
                + "</env-variables>");
    for (String text :
        List.of(
            Manifests.cloudRun(plan, IMAGE),
            Manifests.kubernetes(plan, IMAGE),
            Manifests.appYaml(plan),
            Manifests.dockerfile(plan, "aerun/java17@sha256:00"))) {
      assertFalse(text.contains("GAE_ENV"), text);
      assertFalse(text.toLowerCase().contains("trusted"), text);
      assertFalse(text.contains("allheaders"), text);
    }
  }

  /**
   * Cloud Run's and GKE's front ends terminate TLS and set {@code X-Forwarded-*} (but pass a
   * client's {@code X-AppEngine-*} on): their containers trust them for forwarding headers only.
   */
  @Test
  void cloudRunAndGke_trustTheirFrontEndForForwardingHeadersOnly() throws Exception {
    DeploymentPlan plan = plan("<runtime>java17</runtime>");
    Map<String, Object> run = parse(Manifests.cloudRun(plan, IMAGE));
    assertEquals(
        List.of("--forwarded-from", "all"),
        at(run, "spec", "template", "spec", "containers", 0, "args"));
    assertEquals(
        List.of("--forwarded-from", "all"),
        at(
            parse(Manifests.cloudRun(plan, IMAGE, true)),
            "spec",
            "template",
            "spec",
            "containers",
            0,
            "args"));
    Object deployment = parseAll(Manifests.kubernetes(plan, IMAGE)).get(0);
    assertEquals("Deployment", at(deployment, "kind"));
    List<String> args = at(deployment, "spec", "template", "spec", "containers", 0, "args");
    assertEquals("--forwarded-from", args.get(0));
    assertEquals(2, args.size());
    // The load balancer's proxy and health-check ranges only: the cluster's own pods stay out.
    assertEquals(
        List.of("35.191.0.0/16", "130.211.0.0/22", "2600:2d00:1:b029::/64", "2600:2d00:1:1::/64"),
        List.of(args.get(1).split(",")));
    // App Engine flexible's front end is not given the setting.
    assertFalse(Manifests.appYaml(plan).contains("forwarded"));
    assertFalse(Manifests.dockerfile(plan, "aerun/java17@sha256:00").contains("forwarded"));
  }

  @Test
  void http2_containerPortIsNamedH2c() throws Exception {
    DeploymentPlan plan = plan("<runtime>java17</runtime>");
    Map<String, Object> http1 =
        at(parse(Manifests.cloudRun(plan, IMAGE)), "spec", "template", "spec", "containers", 0);
    assertEquals("http1", at(http1, "ports", 0, "name"));
    Map<String, Object> h2c =
        at(
            parse(Manifests.cloudRun(plan, IMAGE, true)),
            "spec",
            "template",
            "spec",
            "containers",
            0);
    assertEquals("h2c", at(h2c, "ports", 0, "name"));
    assertEquals(8080, (int) at(h2c, "ports", 0, "containerPort"));
  }

  @Test
  void warmupOff_startupProbeIsTcp() throws Exception {
    DeploymentPlan plan =
        plan("<runtime>java17</runtime><warmup-requests-enabled>false</warmup-requests-enabled>");
    Map<String, Object> c =
        at(parse(Manifests.cloudRun(plan, IMAGE)), "spec", "template", "spec", "containers", 0);
    assertNull(at(c, "startupProbe", "httpGet"));
    assertEquals(8080, (int) at(c, "startupProbe", "tcpSocket", "port"));
  }

  @Test
  void unmappable_descriptorsAreClearErrors() {
    StageException e =
        assertThrows(
            StageException.class,
            () ->
                plan(
                    "<runtime>java17</runtime><automatic-scaling><min-instances>5</min-instances>"
                        + "<max-instances>2</max-instances></automatic-scaling>"));
    assertTrue(e.getMessage().contains("max-instances 2 is below min-instances 5"), e.getMessage());
    e =
        assertThrows(
            StageException.class,
            () -> plan("<runtime>java17</runtime><instance-class>F3</instance-class>"));
    assertTrue(e.getMessage().contains("<instance-class>F3</instance-class>"), e.getMessage());
    e = assertThrows(StageException.class, () -> plan("<runtime>python3</runtime>"));
    assertTrue(e.getMessage().contains("expected java17, java21 or java25"), e.getMessage());
  }

  @Test
  void names_areDnsLabels() {
    assertEquals("shop", DeploymentPlan.dnsLabel("shop.war"));
    assertEquals("my-app-v2", DeploymentPlan.dnsLabel("My_App.V2"));
    assertEquals("app", DeploymentPlan.dnsLabel("123"));
  }

  /**
   * The YAML manifests carry any {@code <env-variables>} value: a value YAML would read as
   * something else (a key, a list, an anchor, a tag, a boolean, a comment) comes back from every
   * manifest exactly, as a string, and adds nothing else to the document.
   */
  @Test
  void envValues_comeBackExactly_fromEveryYamlManifest_addingNothing() throws Exception {
    List<String> values =
        List.of(
            "a: b",
            "- item",
            "# comment",
            "{x: 1}",
            "[1, 2]",
            "&anchor",
            "*alias",
            "!!javax.script.ScriptEngineManager [x]",
            "'single'",
            "\"double\"",
            "%TAG ! x",
            "@at",
            "`tick`",
            "| literal",
            "> folded",
            " lead",
            "trail ",
            "true",
            "null",
            "~",
            "0x1F",
            "1e3",
            "2024-01-01",
            "yes",
            "x\ty",
            "---",
            "...",
            "\u00e9\u2028\u2029",
            "");
    DeploymentPlan plan =
        plan("<runtime>java17</runtime><env-variables>" + envVars(values) + "</env-variables>");
    DeploymentPlan none = plan("<runtime>java17</runtime>");

    Map<String, Object> run = parse(Manifests.cloudRun(plan, IMAGE));
    assertEquals(parse(Manifests.cloudRun(none, IMAGE)).keySet(), run.keySet());
    List<Map<String, Object>> runEnv = at(run, "spec", "template", "spec", "containers", 0, "env");
    assertEquals(values.size(), runEnv.size());
    for (Object doc : parseAll(Manifests.kubernetes(plan, IMAGE))) {
      if ("Deployment".equals(at(doc, "kind"))) {
        List<Map<String, Object>> env = at(doc, "spec", "template", "spec", "containers", 0, "env");
        assertEquals(runEnv, env);
      }
    }
    assertEquals(
        parseAll(Manifests.kubernetes(none, IMAGE)).size(),
        parseAll(Manifests.kubernetes(plan, IMAGE)).size(),
        "no document added");
    Map<String, Object> app = parse(Manifests.appYaml(plan));
    Map<String, Object> appEnv = at(app, "env_variables");
    for (int i = 0; i < values.size(); i++) {
      assertEquals(Map.of("name", "V" + i, "value", values.get(i)), runEnv.get(i), values.get(i));
      assertEquals(values.get(i), appEnv.get("V" + i), values.get(i));
    }
    assertEquals(values.size(), appEnv.size());
  }

  /** {@code <env-var name="Vi" value="...">} for each of {@code values}, XML-escaped. */
  static String envVars(List<String> values) {
    StringBuilder vars = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      String value =
          values
              .get(i)
              .replace("&", "&amp;")
              .replace("\"", "&quot;")
              .replace("<", "&lt;")
              .replace("\t", "&#9;");
      vars.append("<env-var name=\"V").append(i).append("\" value=\"").append(value).append("\"/>");
    }
    return vars.toString();
  }
}
