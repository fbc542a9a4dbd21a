package dev.ctxpack.springai.autoconfigure;

import dev.ctxpack.springai.CtxpackAdvisor;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code ctxpack.*} properties. Every one has a default; a value out of range fails the
 * application's start with a message naming the property's builder option.
 */
@ConfigurationProperties(prefix = "ctxpack")
public class CtxpackProperties {
  private int evidenceTokens = 3000;
  private int contextWindow = 8192;
  private int reserveTokens = 1024;
  private String index;
  private int topK = 20;
  private boolean compress = true;
  private final Verify verify = new Verify();
  private final Advisor advisor = new Advisor();

  /** Creates the defaults. */
  public CtxpackProperties() {}

  /** {@code ctxpack.evidence-tokens}: the most tokens ctxpack's prompt may take (default 3000). */
  public int getEvidenceTokens() {
    return evidenceTokens;
  }

  /** Sets {@code ctxpack.evidence-tokens}. */
  public void setEvidenceTokens(int v) {
    this.evidenceTokens = v;
  }

  /** {@code ctxpack.context-window}: the model's window in tokens (default 8192). */
  public int getContextWindow() {
    return contextWindow;
  }

  /** Sets {@code ctxpack.context-window}. */
  public void setContextWindow(int v) {
    this.contextWindow = v;
  }

  /** {@code ctxpack.reserve-tokens}: tokens kept free for the reply (default 1024). */
  public int getReserveTokens() {
    return reserveTokens;
  }

  /** Sets {@code ctxpack.reserve-tokens}. */
  public void setReserveTokens(int v) {
    this.reserveTokens = v;
  }

  /** {@code ctxpack.index}: a ctxpack index spec ({@code lucene:DIR}) to retrieve from; unset for none. */
  public String getIndex() {
    return index;
  }

  /** Sets {@code ctxpack.index}. */
  public void setIndex(String v) {
    this.index = v;
  }

  /** {@code ctxpack.top-k}: chunks the ctxpack index retriever returns (default 20). */
  public int getTopK() {
    return topK;
  }

  /** Sets {@code ctxpack.top-k}. */
  public void setTopK(int v) {
    this.topK = v;
  }

  /** {@code ctxpack.compress}: verbatim compression of the selected passages (default true). */
  public boolean isCompress() {
    return compress;
  }

  /** Sets {@code ctxpack.compress}. */
  public void setCompress(boolean v) {
    this.compress = v;
  }

  /** {@code ctxpack.verify.*}. */
  public Verify getVerify() {
    return verify;
  }

  /** {@code ctxpack.advisor.*}. */
  public Advisor getAdvisor() {
    return advisor;
  }

  /** {@code ctxpack.verify.*}: checking the answer's citations. */
  public static class Verify {
    private boolean enabled = true;
    private CtxpackAdvisor.Reask reask = CtxpackAdvisor.Reask.ON_INVALID_CITATIONS;

    /** Creates the defaults. */
    public Verify() {}

    /** {@code ctxpack.verify.enabled} (default true). */
    public boolean isEnabled() {
      return enabled;
    }

    /** Sets {@code ctxpack.verify.enabled}. */
    public void setEnabled(boolean v) {
      this.enabled = v;
    }

    /** {@code ctxpack.verify.reask}: {@code never}, {@code on-invalid-citations} (default), {@code on-failure}. */
    public CtxpackAdvisor.Reask getReask() {
      return reask;
    }

    /** Sets {@code ctxpack.verify.reask}. */
    public void setReask(CtxpackAdvisor.Reask v) {
      this.reask = v;
    }
  }

  /** {@code ctxpack.advisor.*}. */
  public static class Advisor {
    private int order = CtxpackAdvisor.DEFAULT_ORDER;

    /** Creates the defaults. */
    public Advisor() {}

    /** {@code ctxpack.advisor.order} (default {@link CtxpackAdvisor#DEFAULT_ORDER}). */
    public int getOrder() {
      return order;
    }

    /** Sets {@code ctxpack.advisor.order}. */
    public void setOrder(int v) {
      this.order = v;
    }
  }
}
