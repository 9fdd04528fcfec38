package dev.aerun.e2e;

class Ee8SampleAppTest extends SampleAppTest {
  Ee8SampleAppTest() {
    super("sample-ee8-app.war", "EE8");
  }
}
