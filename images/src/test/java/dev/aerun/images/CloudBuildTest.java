package dev.aerun.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The top-level {@code cloudbuild.yaml}: it parses, and what it runs exists in the repository. */
class CloudBuildTest {
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern SCRIPT = Pattern.compile("((?:\\.ci|images/bin)/[\\w.-]+\\.sh)");
  private static final Pattern PROFILE = Pattern.compile("-P([\\w,-]+)");
  private static final Pattern MODULES = Pattern.compile("-pl ([\\w,/-]+)");
  private static final Pattern PATH =
      Pattern.compile("(integration-tests/[\\w-]+|runtime-main)/target/");

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> steps() throws Exception {
    Map<String, Object> build = new Yaml().load(Files.readString(REPO.resolve("cloudbuild.yaml")));
    return (List<Map<String, Object>>) build.get("steps");
  }

  static String commandOf(Map<String, Object> step) {
    @SuppressWarnings("unchecked")
    List<Object> args = (List<Object>) step.get("args");
    return String.join(" ", args.stream().map(String::valueOf).toList());
  }

  @Test
  void parses_withTheStepsCiRuns() throws Exception {
    List<String> ids = new ArrayList<>();
    for (Map<String, Object> step : steps()) {
      ids.add((String) step.get("id"));
      assertTrue(step.containsKey("name"), step::toString);
    }
    assertEquals(List.of("test", "images", "push", "deploy"), ids);
    assertTrue(
        commandOf(steps().get(0)).contains("mvn -B -Dmaven.repo.local=/workspace/.m2 verify"));
    String all = Files.readString(REPO.resolve("cloudbuild.yaml"));
    assertTrue(all.contains("${_REGION}-docker.pkg.dev/$PROJECT_ID/${_REPOSITORY}/"), all);
  }

  @Test
  void everyScriptItNamesExistsAndIsExecutable() throws Exception {
    int scripts = 0;
    for (Map<String, Object> step : steps()) {
      Matcher m = SCRIPT.matcher(commandOf(step));
      while (m.find()) {
        Path script = REPO.resolve(m.group(1));
        assertTrue(Files.isExecutable(script), script + " named by step " + step.get("id"));
        scripts++;
      }
    }
    assertTrue(scripts >= 3, "found " + scripts);
  }

  @Test
  void everyProfileAndModuleItNamesExists() throws Exception {
    for (Map<String, Object> step : steps()) {
      String command = commandOf(step);
      Matcher p = PROFILE.matcher(command);
      while (p.find()) {
        for (String profile : p.group(1).split(",")) {
          boolean found = false;
          try (var poms = Files.walk(REPO, 3)) {
            for (Path pom :
                poms.filter(f -> f.getFileName().toString().equals("pom.xml")).toList()) {
              found |= Files.readString(pom).contains("<id>" + profile + "</id>");
            }
          }
          assertTrue(found, "profile " + profile);
        }
      }
      Matcher pl = MODULES.matcher(command);
      while (pl.find()) {
        for (String module : pl.group(1).split(",")) {
          assertTrue(Files.isRegularFile(REPO.resolve(module).resolve("pom.xml")), module);
        }
      }
      Matcher path = PATH.matcher(command);
      while (path.find()) {
        assertTrue(
            Files.isRegularFile(REPO.resolve(path.group(1)).resolve("pom.xml")), path.group());
      }
      assertFalse(command.contains("GAE_ENV"), command);
    }
  }
}
