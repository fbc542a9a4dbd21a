/**
 * Spring Boot auto-configuration of ctxpack's Spring AI parts, active when Spring Boot and Spring AI's
 * chat client are on the classpath: {@link dev.ctxpack.springai.autoconfigure.CtxpackAutoConfiguration}
 * and its {@code ctxpack.*} properties, {@link dev.ctxpack.springai.autoconfigure.CtxpackProperties}.
 */
package dev.ctxpack.springai.autoconfigure;
