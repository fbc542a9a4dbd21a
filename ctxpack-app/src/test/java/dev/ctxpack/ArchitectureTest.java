package dev.ctxpack;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStoreProvider;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shape of the code, checked on every build: what may import what. The rules read the compiled
 * main classes of every module but the benchmarks (which measure the parts, and may name them).
 */
class ArchitectureTest {
  static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.ctxpack");
    assertThat(classes.stream().map(JavaClass::getPackageName).distinct().count())
        .as("the packages under dev.ctxpack the rules see").isGreaterThan(20);
  }

  /**
   * Core packages import only downward, in the order of the flow: the model and text utilities at
   * the bottom; the SPIs and shared measures (embedding, index, chat model, the injection guard,
   * chunking, similarity) above them; the stages of a request above those; the packer, which
   * sequences the stages; window assembly and answer verification at the top. A stage never
   * imports the packer, the packer never imports the window.
   */
  @Test
  void corePackagesImportOnlyDownward() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("foundation").definedBy("dev.ctxpack.model..", "dev.ctxpack.text..", "dev.ctxpack.token..",
            "dev.ctxpack.pii..")
        .layer("services").definedBy("dev.ctxpack.embed..", "dev.ctxpack.index..", "dev.ctxpack.llm..",
            "dev.ctxpack.guard..", "dev.ctxpack.chunk..", "dev.ctxpack.similarity..")
        .layer("stages").definedBy("dev.ctxpack.retrieve..", "dev.ctxpack.dedup..", "dev.ctxpack.rerank..",
            "dev.ctxpack.select..", "dev.ctxpack.compress..", "dev.ctxpack.conflict..", "dev.ctxpack.order..")
        .layer("packing").definedBy("dev.ctxpack.pack..")
        .layer("window").definedBy("dev.ctxpack.assemble..")
        .layer("verification").definedBy("dev.ctxpack.verify..")
        .layer("metrics").definedBy("dev.ctxpack.eval..")
        .layer("modules").definedBy("dev.ctxpack.ingest..", "dev.ctxpack.lucene..", "dev.ctxpack.solr..",
            "dev.ctxpack.onnx..", "dev.ctxpack.app..")
        .whereLayer("modules").mayNotBeAccessedByAnyLayer()
        .whereLayer("verification").mayOnlyBeAccessedByLayers("modules")
        .whereLayer("window").mayOnlyBeAccessedByLayers("modules")
        .whereLayer("metrics").mayOnlyBeAccessedByLayers("modules")
        .whereLayer("packing").mayOnlyBeAccessedByLayers("window", "modules")
        .whereLayer("stages").mayOnlyBeAccessedByLayers("packing", "window", "verification", "modules")
        .whereLayer("services").mayOnlyBeAccessedByLayers("stages", "packing", "window", "verification", "modules")
        .check(classes);
  }

  /**
   * No two top-level packages (the core's stages and services, the modules) depend on each other,
   * directly or through others.
   */
  @Test
  void noCyclesBetweenTopLevelPackages() {
    slices().matching("dev.ctxpack.(*)..").should().beFreeOfCycles().check(classes);
  }

  /** The modules below the app never reach up to it: the library does not know its command line or service. */
  @Test
  void libraryModulesDoNotReachTheApp() {
    noClasses().that().resideInAnyPackage("dev.ctxpack.ingest..", "dev.ctxpack.lucene..", "dev.ctxpack.solr..",
            "dev.ctxpack.onnx..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.ctxpack.app..").check(classes);
    noClasses().that().resideOutsideOfPackages("dev.ctxpack.app..")
        .should().dependOnClassesThat().resideInAnyPackage("picocli..", "io.javalin..").check(classes);
  }

  /**
   * Nothing outside a backend's own module names its classes: an index or memory store is opened by
   * spec ({@code dev.ctxpack.index.Indexes}, {@code dev.ctxpack.assemble.MemoryStores}) through the
   * providers each backend registers. A backend is a concrete index, memory store or provider of
   * either in a module of its own (today {@code dev.ctxpack.lucene} and {@code dev.ctxpack.solr}).
   */
  @Test
  void nothingOutsideItsModuleNamesABackend() {
    Set<String> modules = new TreeSet<>();
    for (JavaClass c : classes) {
      boolean backend = !c.isInterface() && (c.isAssignableTo(Index.class) || c.isAssignableTo(MemoryStore.class)
          || c.isAssignableTo(IndexProvider.class) || c.isAssignableTo(MemoryStoreProvider.class));
      String module = topLevel(c.getPackageName());
      if (backend && !CORE.contains(module) && !module.equals("dev.ctxpack.app")) modules.add(module);
    }
    assertThat(modules).as("backend modules").contains("dev.ctxpack.lucene", "dev.ctxpack.solr");
    for (String module : modules) {
      DescribedPredicate<JavaClass> backendOf = new DescribedPredicate<>("a backend class of " + module) {
        @Override
        public boolean test(JavaClass c) {
          return topLevel(c.getPackageName()).equals(module) && !c.isInterface()
              && (c.isAssignableTo(Index.class) || c.isAssignableTo(MemoryStore.class)
                  || c.isAssignableTo(IndexProvider.class) || c.isAssignableTo(MemoryStoreProvider.class));
        }
      };
      noClasses().that().resideOutsideOfPackages(module + "..").should().dependOnClassesThat(backendOf).check(classes);
    }
  }

  /** The core's top-level packages. */
  private static final Set<String> CORE = Set.of("dev.ctxpack.model", "dev.ctxpack.text", "dev.ctxpack.token",
      "dev.ctxpack.pii", "dev.ctxpack.embed", "dev.ctxpack.index", "dev.ctxpack.llm", "dev.ctxpack.guard",
      "dev.ctxpack.chunk", "dev.ctxpack.similarity", "dev.ctxpack.retrieve", "dev.ctxpack.dedup", "dev.ctxpack.rerank",
      "dev.ctxpack.select", "dev.ctxpack.compress", "dev.ctxpack.conflict", "dev.ctxpack.order", "dev.ctxpack.pack",
      "dev.ctxpack.assemble", "dev.ctxpack.verify", "dev.ctxpack.eval");

  private static String topLevel(String pkg) {
    String[] p = pkg.split("\\.");
    return p.length < 3 ? pkg : p[0] + "." + p[1] + "." + p[2];
  }

  /**
   * The app in rooms: the service ({@code http}) and the JSON mapping ({@code json}) never import the
   * command line, the mapping never imports the service, and nothing but the command line names
   * picocli: the service is built from its config record and calls the library.
   */
  @Test
  void theAppsRoomsImportOnlyWhatTheyMay() {
    noClasses().that().resideInAPackage("dev.ctxpack.app.http..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.ctxpack.app.cli..").check(classes);
    noClasses().that().resideInAPackage("dev.ctxpack.app.json..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.ctxpack.app.cli..", "dev.ctxpack.app.http..")
        .check(classes);
    noClasses().that().resideOutsideOfPackage("dev.ctxpack.app.cli..")
        .should().dependOnClassesThat().resideInAnyPackage("picocli..").check(classes);
    noClasses().that().resideInAPackage("dev.ctxpack.app").and().haveSimpleNameNotContaining("$")
        .should().dependOnClassesThat().resideInAnyPackage("dev.ctxpack.app.cli..", "dev.ctxpack.app.http..",
            "dev.ctxpack.app.json..").check(classes);
  }

  /** No main source file outside the benchmarks passes 500 lines: a class that does is asking to be split. */
  @Test
  void noMainSourceFileOver500Lines() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<String> over = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path m : modules.filter(p -> p.getFileName().toString().startsWith("ctxpack-")
          && !p.getFileName().toString().equals("ctxpack-bench")).sorted().toList()) {
        Path src = m.resolve("src/main/java");
        if (!Files.isDirectory(src)) continue;
        try (Stream<Path> files = Files.walk(src)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
            long lines;
            try (Stream<String> l = Files.lines(f)) {
              lines = l.count();
            }
            if (lines > 500) over.add(root.relativize(f) + " (" + lines + " lines)");
          }
        }
      }
    }
    assertThat(over).as("main sources over 500 lines").isEmpty();
  }
}
