package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EnvVariablesTest {
  private static Map<String, String> ordered(String... namesAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      map.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return map;
  }

  @Test
  void nothingWanted_noRelaunch() {
    EnvVariables.Plan plan = EnvVariables.plan(Map.of(), Map.of("HOME", "/root"));

    assertFalse(plan.needsRelaunch());
    assertTrue(plan.overridden().isEmpty());
  }

  @Test
  void alreadyInTheEnvironment_asOnThePlatform_noRelaunch() {
    EnvVariables.Plan plan = EnvVariables.plan(Map.of("A", "1"), Map.of("A", "1"));

    assertFalse(plan.needsRelaunch());
    assertTrue(plan.overridden().isEmpty());
  }

  @Test
  void missing_relaunchWithThemAdded_inTheDescriptorsOrder() {
    EnvVariables.Plan plan =
        EnvVariables.plan(ordered("B", "2", "A", "1", "C", "3"), Map.of("C", "3"));

    assertTrue(plan.needsRelaunch());
    assertEquals(List.of("B", "A"), List.copyOf(plan.missing().keySet()));
  }

  @Test
  void differentValueInTheEnvironment_theEnvironmentWins_andItIsReported() {
    EnvVariables.Plan plan =
        EnvVariables.plan(ordered("A", "descriptor", "B", "2"), Map.of("A", "environment"));

    assertEquals(List.of("A"), plan.overridden());
    assertEquals(Map.of("B", "2"), plan.missing());
    Map<String, String> child = plan.childEnvironment(Map.of("A", "environment"), 1234);
    assertEquals("environment", child.get("A"));
    assertEquals("2", child.get("B"));
  }

  @Test
  void childEnvironment_isTheWholeEnvironmentPlusTheMissingAndTheMarker() {
    Map<String, String> environment = Map.of("HOME", "/root", "PATH", "/bin");
    EnvVariables.Plan plan = EnvVariables.plan(Map.of("A", "1"), environment);

    Map<String, String> child = plan.childEnvironment(environment, 1234);

    assertEquals(
        Map.of("HOME", "/root", "PATH", "/bin", "A", "1", EnvVariables.RELAUNCHED_VARIABLE, "1234"),
        child);
  }

  @Test
  void childEnvironment_marksThePlatformVariablesThatCameFromTheDescriptor() {
    Map<String, String> environment = Map.of("GAE_VERSION", "platform");
    EnvVariables.Plan plan =
        EnvVariables.plan(
            Map.of("GAE_ENV", "standard", "A", "1", "PORT", "1", "GAE_VERSION", "descriptor"),
            environment);

    Map<String, String> child = plan.childEnvironment(environment, 1234);

    assertEquals("standard", child.get("GAE_ENV"));
    assertEquals("platform", child.get("GAE_VERSION"));
    assertEquals(
        Set.of("GAE_ENV", "PORT"),
        Set.of(child.get(EnvVariables.FROM_DESCRIPTOR_VARIABLE).split(",")));
  }

  @Test
  void overriddenWarning_namesTheFileAndVariable_neverTheValues() {
    String warning = EnvVariables.overriddenWarning("app.war!/WEB-INF/appengine-web.xml", "TOKEN");

    assertTrue(warning.startsWith("app.war!/WEB-INF/appengine-web.xml: <env-var name=\"TOKEN\">"));
    assertTrue(warning.contains("the app sees the environment's value"), warning);
  }

  @Test
  void relaunchCommand_startsMainAgainWithTheSameArguments() {
    List<String> command = Relaunch.command(new String[] {"--port", "0", "app.war"}, List.of());

    assertTrue(command.get(0).endsWith("java"), command.toString());
    int main = command.indexOf(Main.class.getName());
    assertTrue(main > 0, command.toString());
    assertEquals(List.of("--port", "0", "app.war"), command.subList(main + 1, command.size()));
    assertEquals("-cp", command.get(main - 2));
    assertEquals(System.getProperty("java.class.path"), command.get(main - 1));
  }

  @Test
  void relaunchedAt_isReadFromTheEnvironment() throws Exception {
    assertEquals(
        java.util.Optional.of(1234L),
        LaunchOptions.parse(Map.of(EnvVariables.RELAUNCHED_VARIABLE, "1234"), Map.of(), "app")
            .relaunchedAt());
    assertEquals(
        java.util.Optional.empty(), LaunchOptions.parse(Map.of(), Map.of(), "app").relaunchedAt());
  }
}
