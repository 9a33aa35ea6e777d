// The OWL API's OWL 2 DL profile check of one ontology document (run by test/conformance/owl2-dl.test.ts with
// Debian's libowlapi-java on the class path). Prints one line per violation, then a summary line; exits 0 when the
// ontology is in the profile.
import java.io.File;
import org.semanticweb.owlapi.apibinding.OWLManager;
import org.semanticweb.owlapi.model.OWLOntology;
import org.semanticweb.owlapi.profiles.OWL2DLProfile;
import org.semanticweb.owlapi.profiles.OWLProfileReport;
import org.semanticweb.owlapi.profiles.OWLProfileViolation;

public class Owl2DlProfile {
  public static void main(String[] args) throws Exception {
    OWLOntology ontology = OWLManager.createOWLOntologyManager().loadOntologyFromOntologyDocument(new File(args[0]));
    OWLProfileReport report = new OWL2DLProfile().checkOntology(ontology);
    for (OWLProfileViolation violation : report.getViolations()) System.out.println("VIOLATION " + violation);
    System.out.println("OWL 2 DL: " + report.isInProfile() + ", violations " + report.getViolations().size());
    System.exit(report.isInProfile() ? 0 : 1);
  }
}
